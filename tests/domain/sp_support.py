"""Helpers for the Saint Poker tests: cards by name, fixed decks, and a game's past as events."""

from __future__ import annotations

from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import (
    CardsRevealed,
    CommitRiverCard,
    PickUp,
    RevealCards,
    RiverCompleted,
    RoundScored,
    RoundStarted,
)
from domain.games.saint_poker.state import DECK, FUTURE_RIVER_SIZES, HAND_SIZE
from domain.kit.cards import Card
from domain.kit.decider import Automatic, Event
from tests.domain import support

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANKS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
SCORE = Automatic("scoring")


def card(text: str) -> Card:
    """'As' -> ace of spades, 'Td' -> ten of diamonds, '7h' -> seven of hearts."""
    rank = RANKS.get(text[:-1]) or int(text[:-1])
    return Card(SUITS[text[-1]], rank)


SP = support.GameHelpers(GAME, card)
cards, given, command_for, deal = SP.cards, SP.given, SP.command_for, SP.deal


def name_of(c: Card) -> str:
    """The other way round: ace of spades -> 'As'."""
    letters = {rank: letter for letter, rank in RANKS.items()}
    return f"{letters.get(c.rank, c.rank)}{c.suit[0]}"


def fixed_deck(hands: list[str], future_river: str = "", deck: str = "") -> tuple[Card, ...]:
    """A whole deck in deal order: each hand filled up to 10 with unused cards (lowest first),
    then the first future river, then the given deck cards, then everything else."""
    named = [cards(hand) for hand in hands] + [cards(future_river), cards(deck)]
    used = {c for group in named for c in group}
    spare = [c for c in sorted(DECK, key=lambda c: (c.rank, c.suit)) if c not in used]
    order: list[Card] = []
    for hand in named[: len(hands)]:
        fill = HAND_SIZE - len(hand)
        order += [*hand, *spare[:fill]]
        spare = spare[fill:]
    order += [*named[-2], *named[-1], *spare]
    assert len(order) == len(DECK) == len(set(order))
    assert len(named[-2]) in (0, FUTURE_RIVER_SIZES[len(hands)])
    return tuple(order)


def round_to_score(
    round_number: int, river: str, revealed: list[str], points=None, future_river: str = ""
) -> list[Event]:
    """A round waiting for its scoring: the seats have `points` from the rounds before, the
    river came complete as `river` (P2) and each seat revealed `revealed[seat]`."""
    players = len(revealed)
    size = FUTURE_RIVER_SIZES[players]
    earlier = [RoundScored(round_number - 1, (), tuple(points), ())] if points else []
    return [
        *support.deal_of([()] * players),
        *earlier,
        RoundStarted(round_number, cards(river)[:size], cards(future_river)),
        RiverCompleted(round_number, cards(river)[size:]),
        CardsRevealed(round_number, tuple(cards(text) for text in revealed)),
    ]


def commit_all(texts: list[str]) -> list[CommitRiverCard]:
    return [CommitRiverCard(seat, card(text)) for seat, text in enumerate(texts)]


def reveal_all(texts: list[str]) -> list[RevealCards]:
    return [RevealCards(seat, cards(text)) for seat, text in enumerate(texts)]


def pick(seat: int, text: str) -> PickUp:
    return PickUp(seat, card(text))
