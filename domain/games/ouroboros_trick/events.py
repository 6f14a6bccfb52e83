"""Ouroboros Trick commands (orders) and events (facts), with who may see each event."""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import Card
from domain.decider import Command, Event, SeatCards


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Discard(Command):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealCommitted(Event):
    """Public: the commitment lets anyone check the deal once DeckSealed is shown at the end."""

    round: int
    commitment: str
    first_leader: int
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandDealt(SeatCards):
    """A seat's dealt hand: its own to see."""


@dataclass(frozen=True, slots=True)
class DeckSealed(Event):
    """The whole deck and salt: seen by nobody until the game ends."""

    round: int
    deck: tuple[Card, ...]
    salt: str

    def visible_to(self) -> tuple[int, ...] | None:
        return ()

    def redacted(self) -> dict:
        return {"round": self.round}


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """Public: the cards were played face up. They go face down to the winner's pool, and
    `discard_count` (the lowest rank in the trick, O4) is what the winner must discard."""

    seat: int
    cards: tuple[Card, ...]
    discard_count: int


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    """Public the moment it is made (O6). `forced`: no choice was left, so nobody was asked."""

    seat: int
    cards: tuple[Card, ...]
    forced: bool


@dataclass(frozen=True, slots=True)
class PoolTaken(SeatCards):
    """A seat's pool becomes its hand (O4, O5): the owner sees the cards, others a count."""


@dataclass(frozen=True, slots=True)
class DiscardAwaited(Event):
    """Public: the winner must now choose `count` cards of their hand to discard."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    final: dict[str, dict[str, int]]


EVENT_TYPES = (
    DealCommitted,
    HandDealt,
    DeckSealed,
    CardPlayed,
    TrickWon,
    CardsDiscarded,
    PoolTaken,
    DiscardAwaited,
    GameEnded,
)
