"""The strong Trick & Snipers bot: perfect-information Monte Carlo from the seat's view alone.

It draws the hidden cards consistently with its view (hand counts, the cards it passed still
with its left neighbour while they may be, suits seats have shown they lack, in this trick, the
last one and the scoring tricks lying face up) and with the plays it can see: as it models every
seat as the basic bot, it deals no seat a card with which that bot would have played otherwise
(a lead is its lowest card but 7s, and so on; see `inference`). Then it plays each of its
candidate moves out in the same worlds with every seat playing as the basic bot, and keeps the
move that wins most often (a point of lead at the end counts a little, so that a near miss
beats a rout). Moves are dropped by halves only after 20, 40, 80 and 160 worlds: a playout is
won or lost, and a few worlds cannot tell the moves apart. Passing: the basic bot's 4 cards
and variants of them, each played out from the pass to the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from domain.games.trick_and_snipers import inference
from domain.games.trick_and_snipers.bots import choose_pass, choose_play
from domain.games.trick_and_snipers.simulator import Sim, pass_all, share, shown
from domain.games.trick_and_snipers.state import HAND_SIZES, PASS_COUNT, SNIPE_TOTAL, deck_for
from domain.kit.budget import Budget, Iterations
from domain.kit.cards import Card, cards_json
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.search import flat
from domain.search.views import cards_of, pairs, plays_of
from domain.search.worlds import deal_hidden, voids_in
from domain.shared.tricks import Play, highest_of_led

DEFAULT_ITERATIONS = 200
SWAPS = 4  # passing: the basic choice, and each of its cards swapped for one of the next 4
# One playout is won or lost: dropping half the moves after 4 worlds drops good ones at random.
HALVING = (20, 40, 80, 160)
LEAD_WEIGHT = 0.1  # a playout's value: the share of the victory, and this per point of lead
# A deal ruling out every card the plays in sight exclude almost always fits them all; one that
# does not (a seat playing otherwise than the basic bot) is drawn once more.
REDRAWS = 1


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
    card = flat.choose(moves, world_sampler(view), partial(play_value, me), rng, budget, HALVING)
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


# A world before the pass: every hand as dealt, and the other seats' passes (basic ones, which
# do not depend on ours: every seat passes at once), drawn once for all our candidates.
PassWorld = tuple[list[list[Card]], dict[int, list[Card]]]


def deal_world(view: dict[str, Any], rng: Rng) -> PassWorld:
    """Before the pass: the other hands from every card not in ours."""
    n, me = len(view["seats"]), view["you"]["seat"]
    hand = cards_of(view["you"]["hand"])
    pool = sorted(set(deck_for(n)) - set(hand))
    counts = {s: HAND_SIZES[n] for s in range(n) if s != me}
    hands, _ = deal_hidden(pool, counts, rng)
    hands[me] = hand
    passes = {s: choose_pass(shown(hands[s]), PASS_COUNT) for s in counts}
    return [hands[s] for s in range(n)], passes


def pass_value(view: dict[str, Any], world: PassWorld, cards: tuple[Card, ...]) -> float:
    me = view["you"]["seat"]
    hands, passes = world
    after = pass_all(hands, {**passes, me: list(cards)})
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
    return world_sampler(view)(rng)


def world_sampler(view: dict[str, Any]) -> Callable[[Rng], Sim]:
    """Reads the view once; each call of the sampler draws a world (`play_world`)."""
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
    known = _known(view, seen)
    # Scoring tricks lie face up: who played what in them shows suits seats lack for good.
    older = [
        inference.won_plays(seat["seat"], cards_of(cards), n)
        for seat in seats
        for cards in seat["face_up_tricks"]
    ]
    deal = _dealer(pool, counts, trick, last, older, me)
    points = [seat["victory_points"] for seat in seats]
    tricks = [seat["tricks_won"] for seat in seats]
    sniper = _last_sniper(trick)

    def sample(rng: Rng) -> Sim:
        hands = deal(known(rng), rng)
        hands[me] = hand
        shown_hands = [shown(hands[s]) for s in range(n)]
        return Sim(n, shown_hands, view["leader"], list(points), list(tricks), [*trick], sniper)

    return sample


def _last_sniper(trick: tuple[Play, ...]) -> int | None:
    """The last seat to snipe in this trick (T4, T5)."""
    sniper = None
    for index, play in enumerate(trick):
        winning = highest_of_led(trick[:index])
        if winning and play.card.suit != trick[0].card.suit:
            if play.card.rank + winning.card.rank == SNIPE_TOTAL:
                sniper = play.seat
    return sniper


# Deals the other hands, given the cards known to be in some of them.
Deal = Callable[[dict[int, list[Card]], Rng], dict[int, list[Card]]]


def _dealer(
    pool: list[Card],
    counts: dict[int, int],
    trick: tuple[Play, ...],
    last: tuple[Play, ...],
    older: list[tuple[Play, ...]],
    me: int,
) -> Deal:
    """Deals the other hands consistently with the view, given the cards known to be held, and
    with the plays in sight, as far as it can, those the basic bot would have made: no seat gets
    a card that would have made it play otherwise (`inference.play_excludes`), and of a few
    deals the first that fits every play in this trick and the last, else the best."""
    voids = voids_in([pairs(plays) for plays in (trick, last, *older)])
    excluded = _excluded(pool, voids, (trick, last, *older), me, len(counts) + 1)
    deal = inference.Dealer(pool, counts, excluded)
    seen = inference.plays_in_sight(trick, last, me, len(counts) + 1)

    def plain(fixed: dict[int, list[Card]], rng: Rng) -> dict[int, list[Card]]:
        return deal_hidden(pool, counts, rng, fixed, voids)[0]  # when nothing else fits

    def likely(fixed: dict[int, list[Card]], rng: Rng) -> dict[int, list[Card]]:
        # As deal_hidden does: a passed card of a suit the seat lacks was played out of sight.
        kept = {
            s: [c for c in cards if c.suit not in voids.get(s, ())] for s, cards in fixed.items()
        }
        best: tuple[int, dict[int, list[Card]]] | None = None
        for _ in range(1 + REDRAWS):
            hands = deal(rng, kept) or plain(fixed, rng)
            wrong = inference.misfits(hands, seen)
            if best is None or wrong < best[0]:
                best = (wrong, hands)
            if wrong == 0:
                break
        assert best is not None
        return best[1]

    return likely


def _excluded(
    pool: list[Card],
    voids: dict[int, set[str]],
    tricks: tuple[tuple[Play, ...], ...],
    me: int,
    players: int,
) -> dict[int, set[Card]]:
    """Per seat, the cards it cannot hold: those of suits it lacks, and those with which the
    basic bot would have played otherwise than it did (a hand only loses cards)."""
    excluded = {s: {c for c in pool if c.suit in suits} for s, suits in voids.items()}
    for plays in tricks:
        for i, play in enumerate(plays):
            if play.seat != me:
                ruled_out = inference.play_excludes(plays[:i], play.card, i == players - 1, pool)
                excluded.setdefault(play.seat, set()).update(ruled_out)
    return excluded


def _known(view: dict[str, Any], seen: set[Card]) -> Callable[[Rng], dict[int, list[Card]]]:
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

    def known(rng: Rng) -> dict[int, list[Card]]:
        return {left: [card for card in unseen if in_sight or rng.random() < held]}

    return known


def play_value(me: int, world: Sim, card: Card) -> float:
    sim = world.copy()
    winners = sim.play(me, card)
    return playout_value(sim, winners if winners is not None else sim.finish(), me)
