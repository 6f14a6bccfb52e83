"""The strong Saint Poker bot: Monte Carlo over the hands it cannot see, one round deep.

Hidden are the other hands (with the river cards and reveals other seats have chosen but not
shown yet), the deck and the discards (only counted in the view). Each world deals those cards
by the public counts; the other seats commit and reveal as the basic bot does (its reveal is
the exact best hand), and each candidate of ours is scored by its share of this round's
points. A reveal also weighs what it costs later: between hands that win nothing, it keeps the
high cards (and the worse hand picks up first). The pickup is the basic bot's.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations
from typing import Any

from domain.games.saint_poker.bots import basic_bot, choose_commit, choose_reveal
from domain.games.saint_poker.state import DECK, ROUNDS
from domain.kit.budget import Budget, Iterations
from domain.kit.cards import Card
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.search import flat
from domain.search.views import cards_of
from domain.search.worlds import deal_hidden
from domain.shared.poker import hand_strength

DEFAULT_ITERATIONS = 200
KEEP_WEIGHT = 0.5  # a revealed ace costs this share of a point in later rounds, a two nothing


def strong_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    budget = budget or Iterations(DEFAULT_ITERATIONS)
    kind = seat_templates(view)[0]["type"]
    default = basic_bot(view, rng)
    me = view["you"]["seat"]
    hand = sorted(cards_of(view["you"]["hand"]))
    river = cards_of(view["river"])
    if kind == "commit_river_card":
        first = Card.from_json(default["card"])
        options = [first, *(card for card in hand if card != first)]
        value = partial(_after_commit, me, hand, river)
        card = flat.choose(options, partial(world, view, 1), value, rng, budget)
        return {"type": kind, "card": card.to_json()}
    if kind == "reveal_cards":
        first_pair = tuple(sorted(cards_of(default["cards"])))
        pairs = [first_pair, *(p for p in combinations(hand, 2) if p != first_pair)]
        value = partial(_after_reveal, me, river, view["round"])
        chosen = flat.choose(pairs, partial(world, view, 2), value, rng, budget)
        return {"type": kind, "cards": [card.to_json() for card in chosen]}
    return default


def world(view: dict[str, Any], chosen: int, rng: Rng) -> dict[int, list[Card]]:
    """The other hands, each with the `chosen` cards (river card or reveal) a seat that has
    already chosen holds back unseen."""
    n, me, seats = len(view["seats"]), view["you"]["seat"], view["seats"]
    flag = "has_committed" if chosen == 1 else "has_revealed"
    seen = set(cards_of(view["you"]["hand"])) | set(cards_of(view["river"]))
    seen |= set(cards_of(view["future_river"]))
    seen |= {card for cards in view["revealed"] for card in cards_of(cards)}
    for key in ("committed_card",):
        if view["you"].get(key):
            seen.add(Card.from_json(view["you"][key]))
    seen |= set(cards_of(view["you"].get("chosen_cards") or []))
    counts = {
        s: seats[s]["hand_count"] + (chosen if seats[s].get(flag) else 0)
        for s in range(n)
        if s != me
    }
    hands, _ = deal_hidden(sorted(set(DECK) - seen), counts, rng)
    return hands


def _share(mine: int, others: list[int]) -> float:
    best = max(others)
    if mine < best:
        return 0.0
    return 1.0 if mine > best else 1.0 / (1 + others.count(best))


def _best(hand: list[Card], river: list[Card]) -> int:
    return max(hand_strength((*river, *pair)) for pair in combinations(hand, 2))


def _after_commit(
    me: int, hand: list[Card], river: list[Card], hands: dict[int, list[Card]], card: Card
) -> float:
    commits = {s: choose_commit(other, river) for s, other in hands.items()}
    full = [*river, card, *commits.values()]
    others = [
        hand_strength((*full, *choose_reveal([c for c in other if c != commits[s]], full)))
        for s, other in hands.items()
    ]
    return _share(_best([c for c in hand if c != card], full), others)


def _after_reveal(
    me: int,
    river: list[Card],
    round_number: int,
    hands: dict[int, list[Card]],
    pair: tuple[Card, ...],
) -> float:
    others = [hand_strength((*river, *choose_reveal(other, river))) for other in hands.values()]
    won = round_number * _share(hand_strength((*river, *pair)), others)
    later = KEEP_WEIGHT * sum(card.rank for card in pair) / 28 if round_number < ROUNDS else 0.0
    return won - later
