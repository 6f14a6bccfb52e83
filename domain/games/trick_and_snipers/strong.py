"""The strong Trick & Snipers bot: perfect-information Monte Carlo from the seat's view alone.

It draws the hidden cards consistently with its view (hand counts, the cards it passed still
with its left neighbour while they may be, suits seats have shown they lack), plays each of its
candidate moves out in the same worlds with every seat playing as the basic bot, and keeps the
move that wins most often (a point of lead at the end counts a little, so that a near miss
beats a rout). Moves are dropped by halves only after 20, 40, 80 and 160 worlds: a playout is
won or lost, and a few worlds cannot tell the moves apart. Passing: the basic bot's 4 cards
and variants of them, each played out from the pass to the end.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from domain.budget import Budget, Iterations
from domain.cards import Card, cards_json
from domain.game_type import Rng
from domain.games.trick_and_snipers.bots import choose_pass, choose_play
from domain.games.trick_and_snipers.simulator import Sim, pass_all, share, shown
from domain.games.trick_and_snipers.state import HAND_SIZES, PASS_COUNT, SNIPE_TOTAL, deck_for
from domain.search import flat
from domain.search.views import cards_of, pairs, plays_of
from domain.search.worlds import deal_hidden, voids_in
from domain.templates import seat_templates

DEFAULT_ITERATIONS = 200
SWAPS = 4  # passing: the basic choice, and each of its cards swapped for one of the next 4
# One playout is won or lost: dropping half the moves after 4 worlds drops good ones at random.
HALVING = (20, 40, 80, 160)
LEAD_WEIGHT = 0.1  # a playout's value: the share of the victory, and this per point of lead


def strong_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    budget = budget or Iterations(DEFAULT_ITERATIONS)
    template = seat_templates(view)[0]
    if template["type"] == "pass_cards":
        hand = cards_of(view["you"]["hand"])
        chosen = flat.choose(
            pass_candidates(hand),
            partial(deal_world, view),
            partial(pass_value, view),
            rng,
            budget,
            HALVING,
        )
        return {"type": "pass_cards", "cards": cards_json(chosen)}
    trick = plays_of(view["trick"])
    playable = cards_of(template["cards"])
    last = len(trick) == len(view["seats"]) - 1
    default = choose_play(trick, playable, last)
    moves = [default, *(card for card in playable if card != default)]
    me = view["you"]["seat"]
    card = flat.choose(
        moves, partial(play_world, view), partial(play_value, me), rng, budget, HALVING
    )
    return {"type": "play_card", "card": card.to_json()}


# --- passing -------------------------------------------------------------------------------


def pass_candidates(hand: list[Card]) -> list[tuple[Card, ...]]:
    ranked = _by_pass_order(hand)
    basic = tuple(choose_pass(hand, PASS_COUNT))
    rest = [card for card in _by_pass_order(hand) if card not in basic][:SWAPS]
    found = [basic]
    for out in basic:
        for into in rest:
            found.append(tuple(into if card == out else card for card in basic))
    lengths = Counter(card.suit for card in hand)
    for suit, length in sorted(lengths.items()):  # make a void: a whole short suit goes
        if length < PASS_COUNT:
            suit_cards = [card for card in hand if card.suit == suit]
            fill = [card for card in ranked if card.suit != suit][: PASS_COUNT - length]
            found.append((*suit_cards, *fill))
    unique = list(dict.fromkeys(tuple(sorted(cards)) for cards in found))
    first = tuple(sorted(basic))
    return [first, *(cards for cards in unique if cards != first)]


def _by_pass_order(hand: list[Card]) -> list[Card]:
    return choose_pass(hand, len(hand))  # the basic bot's whole ranking, best to pass first


def deal_world(view: dict[str, Any], rng: Rng) -> list[list[Card]]:
    """Before the pass: the other hands from every card not in ours."""
    n, me = len(view["seats"]), view["you"]["seat"]
    hand = cards_of(view["you"]["hand"])
    pool = sorted(set(deck_for(n)) - set(hand))
    counts = {s: HAND_SIZES[n] for s in range(n) if s != me}
    hands, _ = deal_hidden(pool, counts, rng)
    hands[me] = hand
    return [hands[s] for s in range(n)]


def pass_value(view: dict[str, Any], hands: list[list[Card]], cards: tuple[Card, ...]) -> float:
    me = view["you"]["seat"]
    after = pass_all(hands, {me: list(cards)})
    n = len(hands)
    sim = Sim(n, after, view["leader"], [0] * n, [0] * n, [])
    return playout_value(sim, sim.finish(), me)


def playout_value(sim: Sim, winners: tuple[int, ...], me: int) -> float:
    """The share of the victory, and a little for each point ahead of (or behind) the best
    other seat: it tells a near miss from a rout, which a won-or-lost playout cannot."""
    others = max(points for seat, points in enumerate(sim.points) if seat != me)
    return share(winners, me) + LEAD_WEIGHT * (sim.points[me] - others)


# --- playing -------------------------------------------------------------------------------


def play_world(view: dict[str, Any], rng: Rng) -> Sim:
    """The game now, with the hidden cards drawn consistently with the view."""
    n, me = len(view["seats"]), view["you"]["seat"]
    seats = view["seats"]
    hand = cards_of(view["you"]["hand"])
    trick = plays_of(view["trick"])
    last = plays_of(view["last_trick"]["plays"]) if view["last_trick"] else ()
    face_up = {
        card for seat in seats for cards in seat["face_up_tricks"] for card in cards_of(cards)
    }
    seen = {play.card for play in (*trick, *last)} | face_up
    pool = sorted(set(deck_for(n)) - set(hand) - seen)
    counts = {s: seats[s]["hand_count"] for s in range(n) if s != me}
    hands, _ = deal_hidden(
        pool, counts, rng, _known(view, seen, rng), voids_in([pairs(trick), pairs(last)])
    )
    hands[me] = hand
    sim = Sim(
        n,
        [shown(hands[s]) for s in range(n)],
        view["leader"],
        [seat["victory_points"] for seat in seats],
        [seat["tricks_won"] for seat in seats],
        [],
    )
    for play in trick:  # replayed, to know the snipes of this trick
        winning = sim.winning()
        if winning and play.card.suit != trick[0].card.suit:
            if play.card.rank + winning.card.rank == SNIPE_TOTAL:
                sim.last_sniper = play.seat
        sim.trick.append(play)
    return sim


def _known(view: dict[str, Any], seen: set[Card], rng: Rng) -> dict[int, list[Card]]:
    """The cards we passed are in our left neighbour's hand unless it played them. While every
    played card is still in sight, that is certain; later each unseen one is placed there with
    the chance that it is still unplayed."""
    passed = view["you"].get("passed_cards") or []
    n, me = len(view["seats"]), view["you"]["seat"]
    left = (me + 1) % n
    unseen = [card for card in cards_of(passed) if card not in seen]
    played = sum(seat["tricks_won"] for seat in view["seats"]) * n + len(view["trick"])
    in_sight = len(seen) >= played
    held = view["seats"][left]["hand_count"] / HAND_SIZES[n]
    return {left: [card for card in unseen if in_sight or rng.random() < held]}


def play_value(me: int, world: Sim, card: Card) -> float:
    sim = world.copy()
    winners = sim.play(me, card)
    return playout_value(sim, winners if winners is not None else sim.finish(), me)
