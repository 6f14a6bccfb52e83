"""St Patrick commands (orders): `seat` plus the fields of the API action. A card is played
with the trick games' shared `domain.shared.tricks.PlayCard`."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kit.cards import Card
from domain.kit.decider import Command


@dataclass(frozen=True, slots=True)
class ChoosePassCount(Command):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PassCards(Command):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TakeRelics(Command):
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PassRelics(Command):
    seat: int
