"""Ouroboros Trick commands (orders) and events (facts), with who may see each event. The deal's
events, GameEnded and CardPlayed are every game's or every trick game's (domain.shared.dealing,
domain.kit.outcome, domain.shared.tricks): imported `as` themselves, so this module re-exports
them with the game's own."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kit.cards import Card
from domain.kit.decider import Command, Event, SeatCards
from domain.kit.outcome import GameEnded as GameEnded
from domain.shared.dealing import DealCommitted as DealCommitted
from domain.shared.dealing import DeckSealed as DeckSealed
from domain.shared.dealing import HandDealt as HandDealt
from domain.shared.tricks import CardPlayed as CardPlayed


@dataclass(frozen=True, slots=True)
class Discard(Command):
    seat: int
    cards: tuple[Card, ...]


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
