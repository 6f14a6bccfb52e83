"""Saint Poker bots: pure functions of the seat's own view and a generator they are handed."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from domain.kit.budget import Budget
from domain.kit.cards import Card, cards_json
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.shared.poker import hand_strength

PAIR_WEIGHT = 25  # a card matching one in hand can make a pocket pair: worth more than any rank
SUIT_WEIGHT = 2


def basic_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    templates = seat_templates(view)
    template = templates[0]
    offered = [Card.from_json(card) for card in template["cards"]]
    hand = [Card.from_json(card) for card in view["you"]["hand"]]
    river = [Card.from_json(card) for card in view["river"]]
    if template["type"] == "commit_river_card":
        return {"type": "commit_river_card", "card": choose_commit(hand, river).to_json()}
    if template["type"] == "reveal_cards":
        return {"type": "reveal_cards", "cards": cards_json(choose_reveal(hand, river))}
    return {"type": "pick_up", "card": choose_pick(hand, offered).to_json()}


def usefulness(card: Card, others: Sequence[Card], river: Sequence[Card] = ()) -> int:
    """How much a card is worth keeping: pairs with the hand first, then rank, then suit."""
    same_rank = sum(other.rank == card.rank for other in others)
    same_suit = sum(other.suit == card.suit for other in (*others, *river))
    return PAIR_WEIGHT * same_rank + card.rank + SUIT_WEIGHT * same_suit


def choose_commit(hand: Sequence[Card], river: Sequence[Card]) -> Card:
    """The card that helps itself least: a low, lone card does little for anyone's hand."""
    return min(hand, key=lambda c: (usefulness(c, [o for o in hand if o != c], river), c))


def choose_reveal(hand: Sequence[Card], river: Sequence[Card]) -> tuple[Card, Card]:
    """The best pair for this river; between equal hands, keep the higher cards for later."""
    pairs = list(combinations(sorted(hand), 2))
    if len(river) + 2 < 5:  # never with a complete river; a guard for odd views
        return pairs[0]
    return max(pairs, key=lambda p: (hand_strength((*river, *p)), -p[0].rank - p[1].rank))


def choose_pick(hand: Sequence[Card], offered: Sequence[Card]) -> Card:
    """The card that best improves the hand for later rounds."""
    return max(offered, key=lambda c: (usefulness(c, hand), c))
