"""Poker hand ranking (P3): the best five of five to seven cards, Texas hold'em order.

`phevaluator` (C) finds the value; this module turns it into an ordering where higher is better
and names the hand ("king-high flush", "full house, queens over fives", ...). Ace is high, the
wheel A-2-3-4-5 is the lowest straight, suits never break ties, and equal values are exact ties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from phevaluator import _pheval  # the C entry points: int ids only, no per-card conversion

from domain.kit.cards import Card

SUIT_IDS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}  # phevaluator's suit order
# rank * 4 + _SUIT_OFFSET[suit] is phevaluator's id: one dict lookup (the suit string's hash is
# cached) and no tuple, where a dict keyed by Card would hash a dataclass per card.
_SUIT_OFFSET = {suit: index - 8 for suit, index in SUIT_IDS.items()}
WORST = 7462  # phevaluator: 1 (royal flush) .. 7462 (7-5-4-3-2 high), lower is better
_EVALUATE_7 = _pheval.evaluate_7cards
# By card count; phevaluator ranks 5 to 7 cards.
_EVALUATORS = (None,) * 5 + (_pheval.evaluate_5cards, _pheval.evaluate_6cards, _EVALUATE_7)
# The worst phevaluator value of each category, best category first.
CATEGORY_LIMITS = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "one pair"),
    (WORST, "high card"),
)
CATEGORIES = tuple(name for _, name in reversed(CATEGORY_LIMITS))  # worst first
WORDS = {
    2: ("two", "twos"), 3: ("three", "threes"), 4: ("four", "fours"), 5: ("five", "fives"),
    6: ("six", "sixes"), 7: ("seven", "sevens"), 8: ("eight", "eights"), 9: ("nine", "nines"),
    10: ("ten", "tens"), 11: ("jack", "jacks"), 12: ("queen", "queens"), 13: ("king", "kings"),
    14: ("ace", "aces"),
}  # fmt: skip


@dataclass(frozen=True, slots=True, order=True)
class HandRank:
    """Compares by `strength` only (higher wins, equal ties); `category` and `name` describe."""

    strength: int
    category: str = field(compare=False)
    name: str = field(compare=False)


def card_id(card: Card) -> int:
    """phevaluator's id: rank index (2 -> 0 .. ace -> 12) times 4 plus the suit index, 0 .. 51.
    Work out a card's id once and use `strength_of_ids` in loops that evaluate many hands."""
    return card.rank * 4 + _SUIT_OFFSET[card.suit]


def strength_of_ids(ids: Sequence[int]) -> int:
    """`hand_strength` of 5 to 7 cards given by `card_id` (the fastest entry, for playouts):
    higher is better, 1 .. 7462."""
    evaluate = _EVALUATORS[len(ids)] if len(ids) <= 7 else None
    if evaluate is None:
        raise ValueError(f"a poker hand is 5 to 7 cards, not {len(ids)}")
    value: int = evaluate(*ids)  # phevaluator is untyped
    return WORST + 1 - value


def hand_strength(cards: Sequence[Card]) -> int:
    """The comparable value alone (the fast path): higher is better, 1 .. 7462."""
    if len(cards) == 7:  # Saint Poker's usual hand (river and two cards), unrolled: no list
        a, b, c, d, e, f, g = cards
        off = _SUIT_OFFSET
        value: int = _EVALUATE_7(
            a.rank * 4 + off[a.suit], b.rank * 4 + off[b.suit], c.rank * 4 + off[c.suit],
            d.rank * 4 + off[d.suit], e.rank * 4 + off[e.suit], f.rank * 4 + off[f.suit],
            g.rank * 4 + off[g.suit],
        )  # fmt: skip
        return WORST + 1 - value
    return strength_of_ids([card.rank * 4 + _SUIT_OFFSET[card.suit] for card in cards])


def category_of(strength: int) -> str:
    value = WORST + 1 - strength
    return next(name for limit, name in CATEGORY_LIMITS if value <= limit)


# Equal values are the same hand class, so the same category and name: each of the 7,462
# classes is described once, then looked up (describing is far slower than evaluating).
_DESCRIBED: dict[int, tuple[str, str]] = {}


def rank_hand(cards: Sequence[Card]) -> HandRank:
    """The best five of these 5-7 cards: its value and its name."""
    strength = hand_strength(cards)
    described = _DESCRIBED.get(strength)
    if described is None:
        category = category_of(strength)
        described = _DESCRIBED[strength] = (category, describe(category, cards))
    return HandRank(strength, *described)


def describe(category: str, cards: Sequence[Card]) -> str:
    counts = Counter(card.rank for card in cards)
    if category in ("straight flush", "flush"):
        suited = _flush_ranks(cards)
        if category == "flush":
            return f"{_word(max(suited))}-high flush"
        return f"{_word(straight_top(suited) or 0)}-high straight flush"
    if category == "straight":
        return f"{_word(straight_top(counts) or 0)}-high straight"
    if category == "four of a kind":
        return f"four {_plural(_ranks_with(counts, 4)[0])}"
    if category == "full house":
        trips = _ranks_with(counts, 3)[0]
        pair = max(rank for rank, n in counts.items() if n >= 2 and rank != trips)
        return f"full house, {_plural(trips)} over {_plural(pair)}"
    if category == "three of a kind":
        return f"three {_plural(_ranks_with(counts, 3)[0])}"
    if category == "two pair":
        high, low = _ranks_with(counts, 2)[:2]
        return f"two pair, {_plural(high)} and {_plural(low)}"
    if category == "one pair":
        return f"pair of {_plural(_ranks_with(counts, 2)[0])}"
    return f"{_word(max(counts))} high"


def straight_top(ranks: Iterable[int]) -> int | None:
    """The top rank of the highest straight in these ranks; the wheel's top is the five."""
    present = set(ranks)
    if 14 in present:
        present.add(1)  # the ace also plays low: A-2-3-4-5
    for top in range(14, 4, -1):
        if all(rank in present for rank in range(top - 4, top + 1)):
            return top
    return None


def _flush_ranks(cards: Sequence[Card]) -> list[int]:
    suit, _ = Counter(card.suit for card in cards).most_common(1)[0]
    return [card.rank for card in cards if card.suit == suit]


def _ranks_with(counts: Counter[int], at_least: int) -> list[int]:
    return sorted((rank for rank, n in counts.items() if n >= at_least), reverse=True)


def _word(rank: int) -> str:
    return WORDS[rank][0]


def _plural(rank: int) -> str:
    return WORDS[rank][1]
