"""St Patrick commands (orders) and events (facts), with who may see each event. A card is
played with the trick games' `domain.shared.tricks.PlayCard`. The deal's events, the passing's
(and its PassCards), CardPlayed and GameEnded are every game's or every trick game's
(domain.shared.dealing, domain.shared.passing, domain.shared.tricks, domain.kit.outcome): imported
`as` themselves, so this module re-exports them with the game's own."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kit.cards import Card
from domain.kit.decider import Command, Event
from domain.kit.outcome import GameEnded as GameEnded
from domain.shared.dealing import DealCommitted as DealCommitted
from domain.shared.dealing import DeckSealed as DeckSealed
from domain.shared.dealing import HandDealt as HandDealt
from domain.shared.passing import CardsHanded
from domain.shared.passing import CardsPassed as CardsPassed
from domain.shared.passing import CardsReceived as CardsReceived
from domain.shared.passing import PassCards as PassCards
from domain.shared.tricks import CardPlayed as CardPlayed


@dataclass(frozen=True, slots=True)
class ChoosePassCount(Command):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class TakeRelics(Command):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PassRelics(Command):
    seat: int


@dataclass(frozen=True, slots=True)
class PassCountAwaited(Event):
    """S3: `chooser`, alone with the lowest life, picks how many cards everyone passes."""

    chooser: int


@dataclass(frozen=True, slots=True)
class PassCountSet(Event):
    """The round's pass count; `seat` is the chooser, or None when the rules fixed it."""

    count: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class RelicPhaseStarted(Event):
    """S4/S5: 15 relics in the middle, none held; `starter` (holder of clover 7) acts first."""

    number: int
    starter: int


@dataclass(frozen=True, slots=True)
class RelicsTaken(Event):
    seat: int
    count: int
    left: int


@dataclass(frozen=True, slots=True)
class RelicsDeclined(Event):
    """A seat passed its relic turn (S4: it may still take on a later turn)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RelicsCursed(Event):
    """S5: the middle ran empty; every seat lost life equal to the relics it holds."""

    curse: int
    losses: tuple[int, ...]
    life: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandPassed(CardsHanded):
    """S5: `seat` now holds the whole hand of `from_seat`, who knew it already."""


@dataclass(frozen=True, slots=True)
class HuntStarted(Event):
    """S7 (or S6 when `special`): `leader`, holder of clover 7, leads the first trick."""

    leader: int
    special: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """The trick's cards were all played face up; its bite cards stay face up before `seat`."""

    seat: int
    cards: tuple[Card, ...]
    bites: int


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """S6/S8: `changes` is each seat's life change (negative: lost), `life` the result."""

    round: int
    bites: tuple[int, ...]
    relics: tuple[int, ...]
    changes: tuple[int, ...]
    life: tuple[int, ...]
    big_sacrifice: int | None
    special: bool


EVENT_TYPES = (
    DealCommitted,
    HandDealt,
    DeckSealed,
    PassCountAwaited,
    PassCountSet,
    CardsPassed,
    CardsReceived,
    RelicPhaseStarted,
    RelicsTaken,
    RelicsDeclined,
    RelicsCursed,
    HandPassed,
    HuntStarted,
    CardPlayed,
    TrickWon,
    RoundScored,
    GameEnded,
)
