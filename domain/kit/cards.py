"""Cards, identified by suit and rank (G5), and deck builders."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Cards are frozen values: equal cards may be one object (Card.from_json shares them).
MAX_SHARED_CARDS = 1024
_CARDS: dict[tuple[Any, Any], Card] = {}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    suit: str
    rank: int

    def to_json(self) -> dict[str, Any]:
        return {"suit": self.suit, "rank": self.rank}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Card:
        """One object per card: a table folded from its events holds each card many times
        (hands, tricks, plays), and a long-running process folds thousands of tables."""
        key = (data["suit"], data["rank"])
        card = _CARDS.get(key)
        if card is None:
            card = cls(suit=key[0], rank=key[1])
            if len(_CARDS) < MAX_SHARED_CARDS:  # bounded: whatever a client sends, a few decks
                _CARDS[key] = card
        return card

    def __str__(self) -> str:
        return f"{self.suit} {self.rank}"


def build_deck(suits: Iterable[str], ranks: Iterable[int]) -> tuple[Card, ...]:
    """Every (suit, rank) pair, suits in the given order, ranks ascending within a suit."""
    rank_list = list(ranks)
    return tuple(Card(suit, rank) for suit in suits for rank in rank_list)


def cards_json(cards: Iterable[Card]) -> list[dict[str, Any]]:
    return [card.to_json() for card in cards]


def sort_by_suit(cards: Iterable[Card], suits: Sequence[str]) -> list[Card]:
    """Suits in the game's order, ranks ascending within a suit (how hands are shown)."""
    return sorted(cards, key=lambda card: (suits.index(card.suit), card.rank))


def remove_cards(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    """The hand without the given cards (each must be held)."""
    gone = set(cards)
    return tuple(card for card in hand if card not in gone)
