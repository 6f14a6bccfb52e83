"""The strong St Patrick bot: perfect-information Monte Carlo from the seat's view alone.

Every decision -- the pass count, the cards to pass, how many relics to take, the card to
play -- is made by playing each candidate out to the end of the round in worlds drawn
consistently with the view and keeping the one that does best. In the playouts every other
seat plays as the basic bot, but in each world each of them takes relics at random with chance
WILD_CHANCE (the others it meets may empty the middle: a curse). "Best" is how the seat stands
against each other seat, as ratings rank them (G7): the final order if the round ends the game,
else how far ahead of or behind each other seat its life is (simulator.Round.value).

Hidden: the other hands. Known besides our own hand: the cards played in sight (the trick, the
last trick, the bite cards before each seat), the cards we passed and received this round
(where the curses have carried them since), and the suits a seat has shown it lacks.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations
from typing import Any

from domain.games.st_patrick.bots import basic_bot, danger
from domain.games.st_patrick.simulator import Round, passed, shown
from domain.games.st_patrick.state import DECK, HAND_SIZES, MAX_PASS, SNAKE, ST_PATRICK
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.search import flat
from domain.search.budget import Budget, Iterations
from domain.search.views import cards_of, pairs, plays_of
from domain.search.worlds import deal_hidden, voids_in
from domain.shared.cards import Card, cards_json

DEFAULT_ITERATIONS = 200
# In each world every other seat takes relics at random with this chance, else as the basic
# bot. A basic bot never empties the middle, so a model of basic seats alone never foresees a
# curse (S5) and holds relics too freely; a seat that takes at random, or a human emptying the
# middle on purpose, curses them. 0.3 kept the strong bot's edge over basic seats alone
# (bench/bot_strength/tournament.py) and made it finish above basic at tables with a random bot
# (bench/bot_strength/lineups.py, docs/benchmarks.md).
WILD_CHANCE = 0.3
DRAWS = 64  # uniform draws per world for its wild seats' choices
PASS_POOL = 7  # passing 2 cards: every pair among the 7 most dangerous


def strong_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    budget = budget or Iterations(DEFAULT_ITERATIONS)
    template = seat_templates(view)[0]
    kind = template["type"]
    default = basic_bot(view, rng)
    me = view["you"]["seat"]
    hand = shown(cards_of(view["you"]["hand"]))
    if kind == "choose_pass_count":
        counts = [default["count"], *(c for c in range(MAX_PASS + 1) if c != default["count"])]
        value = partial(_after_pass, view, me, None)
        count = flat.choose(counts, partial(_dealt, view), value, rng, budget)
        return {"type": kind, "count": count}
    if kind == "pass_cards":
        options = pass_candidates(hand, template["count"], cards_of(default["cards"]))
        chosen = flat.choose(
            options,
            partial(_dealt, view),
            lambda hands, cards: _after_pass(view, me, cards, hands, template["count"]),
            rng,
            budget,
        )
        return {"type": kind, "cards": cards_json(chosen)}
    if kind == "take_relics":
        basic = default.get("count", 0)
        takes = [basic, *(k for k in range(view["relics_left"] + 1) if k != basic)]
        value = partial(_after_relics, me)
        take = flat.choose(takes, partial(relic_world, view), value, rng, budget)
        return {"type": kind, "count": take} if take else {"type": "pass_relics"}
    first = Card.from_json(default["card"])
    moves = [first, *(card for card in cards_of(template["cards"]) if card != first)]
    card = flat.choose(moves, partial(hunt_world, view), partial(_after_play, me), rng, budget)
    return {"type": "play_card", "card": card.to_json()}


def pass_candidates(hand: list[Card], count: int, basic: list[Card]) -> list[tuple[Card, ...]]:
    first = tuple(sorted(basic))
    worst = sorted(hand, key=danger, reverse=True)
    found: list[tuple[Card, ...]]
    if count == 1:
        found = [(card,) for card in worst]
    else:
        found = [tuple(sorted(pair)) for pair in combinations(worst[:PASS_POOL], count)]
    return [first, *(cards for cards in dict.fromkeys(found) if cards != first)]


# --- worlds --------------------------------------------------------------------------------


def _dealt(view: dict[str, Any], rng: Rng) -> Round:
    """Before the pass takes effect: every card not ours is in another hand (S2), a seat that
    has chosen its cards still counted as holding them."""
    n, me = len(view["seats"]), view["you"]["seat"]
    hand = cards_of(view["you"]["hand"])
    pool = sorted(set(DECK) - set(hand))
    counts = {s: HAND_SIZES[n] for s in range(n) if s != me}
    hands, _ = deal_hidden(pool, counts, rng)
    hands[me] = hand
    return _round(view, [shown(hands[s]) for s in range(n)], rng)


def _hands(view: dict[str, Any], rng: Rng) -> list[list[Card]]:
    """The hands now, drawn from every card not ours nor seen played."""
    n, me, seats = len(view["seats"]), view["you"]["seat"], view["seats"]
    hand = cards_of(view["you"]["hand"])
    trick = plays_of(view["trick"])
    last = plays_of(view["last_trick"]["plays"]) if view["last_trick"] else ()
    seen = {p.card for p in (*trick, *last)} | {
        card for seat in seats for card in cards_of(seat["bite_cards"])
    }
    pool = sorted(set(DECK) - set(hand) - seen)
    counts = {s: seats[s]["hand_count"] for s in range(n) if s != me}
    known = _known(view, seen, rng)
    lacking = voids_in([pairs(trick), pairs(last)])
    hands, _ = deal_hidden(pool, counts, rng, known, lacking)
    hands[me] = hand
    return [shown(hands[s]) for s in range(n)]


def _known(view: dict[str, Any], seen: set[Card], rng: Rng) -> dict[int, list[Card]]:
    """Where the cards we passed and received are now: each curse hands every hand on to the
    left (S5). While every played card is in sight that is certain; once some went by unseen,
    each unseen one stays with the chance that its holder has not played it yet."""
    n, me, seats = len(view["seats"]), view["you"]["seat"], view["seats"]
    curses = view["curses"]
    played = sum(seat["tricks_won"] for seat in seats) * n + len(view["trick"])
    in_sight = len(seen) >= played
    known: dict[int, list[Card]] = {}
    moves = (("passed_cards", 1), ("received_cards", 0))
    for key, step in moves:
        holder = (me + step + curses) % n
        cards = [c for c in cards_of(view["you"].get(key) or []) if c not in seen]
        if holder == me or not cards:
            continue
        still = seats[holder]["hand_count"] / HAND_SIZES[n]
        known.setdefault(holder, []).extend(c for c in cards if in_sight or rng.random() < still)
    return known


def relic_world(view: dict[str, Any], rng: Rng) -> Round:
    """The relic phase now. Who took and passed before us is not in the view: a take shows in
    the relics held, and we count the passes since the nearest taker before us (or, with no
    take, since the holder of clover 7, who started)."""
    n, me = len(view["seats"]), view["you"]["seat"]
    world = _round(view, _hands(view, rng), rng)
    world.relics_left, world.relic_turn, world.curses = view["relics_left"], me, view["curses"]
    takers = [s for s in range(1, n) if world.relics[(me - s) % n] > 0]
    world.taken = bool(takers)
    if takers:
        world.passes = takers[0] - 1
    else:
        world.passes = (me - world.holder(ST_PATRICK)) % n
    return world


def hunt_world(view: dict[str, Any], rng: Rng) -> Round:
    world = _round(view, _hands(view, rng), rng)
    world.phase, world.special, world.leader = "playing", view["special_hunt"], view["leader"]
    world.trick = list(plays_of(view["trick"]))
    world.tricks_played = sum(seat["tricks_won"] for seat in view["seats"])
    world.bites = [seat["bites"] for seat in view["seats"]]
    world.snakes = [
        sum(card.suit == SNAKE for card in cards_of(seat["bite_cards"])) for seat in view["seats"]
    ]
    return world


def _round(view: dict[str, Any], hands: list[list[Card]], rng: Rng) -> Round:
    seats, me = view["seats"], view["you"]["seat"]
    snake_lead = bool(view.get("options", {}).get("first_lead_snake_allowed", True))
    wild = frozenset(s for s in range(len(seats)) if s != me and rng.random() < WILD_CHANCE)
    return Round(
        len(seats),
        hands,
        [seat["life"] for seat in seats],
        [seat["relics"] for seat in seats],
        snake_lead,
        wild=wild,
        draws=tuple(rng.random() for _ in range(DRAWS)) if wild else (),
    )


# --- values --------------------------------------------------------------------------------


def _after_pass(
    view: dict[str, Any],
    me: int,
    cards: tuple[Card, ...] | None,
    dealt: Round,
    count: int,
) -> float:
    mine = {me: list(cards)} if cards else {}
    world = dealt.copy()  # a world is never changed
    if count:
        world.hands = [shown(hand) for hand in passed(world.hands, count, mine)]
    world.relics = [0] * world.players
    world.start_relics()
    world.finish()
    return world.value(me)


def _after_relics(me: int, world: Round, take: int) -> float:
    played = world.copy()
    played.relic_action(me, take)
    played.finish()
    return played.value(me)


def _after_play(me: int, world: Round, card: Card) -> float:
    played = world.copy()
    played.play(me, card)
    played.finish()
    return played.value(me)
