"""Trick & Snipers commands (orders) and events (facts), with who may see each event."""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import Card
from domain.decider import Command, Event, SeatCards


@dataclass(frozen=True, slots=True)
class PassCards(Command):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    seat: int
    card: Card


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
    """The whole deck and salt: seen by nobody until the game ends (T1: left-overs stay hidden)."""

    round: int
    deck: tuple[Card, ...]
    salt: str

    def visible_to(self) -> tuple[int, ...] | None:
        return ()

    def redacted(self) -> dict:
        return {"round": self.round}


@dataclass(frozen=True, slots=True)
class CardsPassed(SeatCards):
    """G3: others learn only that the seat has chosen, and how many cards."""


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """The cards `seat` got from `from_seat`: known to both of them, to nobody else."""

    seat: int
    from_seat: int
    cards: tuple[Card, ...]

    def visible_to(self) -> tuple[int, ...] | None:
        return (self.seat, self.from_seat)

    def redacted(self) -> dict:
        return {"seat": self.seat, "from_seat": self.from_seat, "count": len(self.cards)}


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card
    snipe: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    seat: int
    cards: tuple[Card, ...]
    point_to: int | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    final: dict[str, dict[str, int]]


EVENT_TYPES = (
    DealCommitted,
    HandDealt,
    DeckSealed,
    CardsPassed,
    CardsReceived,
    CardPlayed,
    TrickWon,
    GameEnded,
)
