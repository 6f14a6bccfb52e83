"""Trick & Snipers commands (orders) and events (facts), with who may see each event. The deal's
events, the passing's (and its PassCards) and GameEnded are every game's (domain.shared.dealing,
domain.shared.passing, domain.kit.outcome): imported `as` themselves, so this module re-exports
them with the game's own."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kit.cards import Card
from domain.kit.decider import Event
from domain.kit.outcome import GameEnded as GameEnded
from domain.shared.dealing import DealCommitted as DealCommitted
from domain.shared.dealing import DeckSealed as DeckSealed
from domain.shared.dealing import HandDealt as HandDealt
from domain.shared.passing import CardsPassed as CardsPassed
from domain.shared.passing import CardsReceived as CardsReceived
from domain.shared.passing import PassCards as PassCards


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """Not the trick games' shared CardPlayed: `snipe` (T4) is part of this game's event."""

    seat: int
    card: Card
    snipe: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    seat: int
    cards: tuple[Card, ...]
    point_to: int | None
    face_up: bool


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
