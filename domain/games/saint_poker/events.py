"""Saint Poker commands (orders) and events (facts), with who may see each event. The deal's
events and GameEnded are every game's (domain.shared.dealing, domain.kit.outcome): imported `as`
themselves, so this module re-exports them with the game's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.games.saint_poker.state import RankedHand
from domain.kit.cards import Card
from domain.kit.decider import Command, Event, SeatCards
from domain.kit.outcome import GameEnded as GameEnded
from domain.shared.dealing import DealCommitted as DealCommitted
from domain.shared.dealing import DeckSealed as DeckSealed
from domain.shared.dealing import HandDealt as HandDealt


@dataclass(frozen=True, slots=True)
class CommitRiverCard(Command):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RevealCards(Command):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PickUp(Command):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """P2: the future river became the start of the river; `future_river` was just turned."""

    round: int
    river: tuple[Card, ...]
    future_river: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RiverCardCommitted(Event):
    """G3: others learn only that the seat has committed."""

    seat: int
    card: Card

    def visible_to(self) -> tuple[int, ...] | None:
        return (self.seat,)

    def redacted(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class RiverCompleted(Event):
    """Every committed card, by seat, turned face up at once: the river now has 5 cards."""

    round: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RevealChosen(SeatCards):
    """G3: the 2 cards a seat will reveal; others learn only that it has chosen."""


@dataclass(frozen=True, slots=True)
class CardsRevealed(Event):
    """Every seat's 2 cards, by seat, face up at once; the round waits for scoring."""

    round: int
    cards: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """P3/P4: the ranking, best first, each seat's points this round; P5: the pickup order
    (both passes; empty after the last round)."""

    round: int
    ranking: tuple[RankedHand, ...]
    points: tuple[int, ...]
    pickup_order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardPickedUp(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The 5 cards nobody picked up, discarded for good (face up)."""

    round: int
    discarded: tuple[Card, ...]


EVENT_TYPES = (
    DealCommitted,
    HandDealt,
    DeckSealed,
    RoundStarted,
    RiverCardCommitted,
    RiverCompleted,
    RevealChosen,
    CardsRevealed,
    RoundScored,
    CardPickedUp,
    RoundEnded,
    GameEnded,
)
