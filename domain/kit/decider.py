"""The Decider protocol every game follows, its errors, and the commands/events base shapes.

decide(state, command) -> list[Event]   validates, raises a DomainError subclass
evolve(state, event) -> State           records, never validates; raises only on an event the
                                        game does not know (a bug: domain.kit.dispatch.UnknownEvent)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from domain.kit.cards import Card

S = TypeVar("S")


class DomainError(Exception):
    """A command that the rules refuse; `code` is the stable API error code."""

    code: ClassVar[str] = "illegal-action"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(DomainError):
    code = "illegal-action"


class GameFinished(DomainError):
    code = "game-finished"


class GameNotStarted(DomainError):
    code = "game-not-started"


class SeatTaken(DomainError):
    code = "seat-taken"


class InvalidSetup(DomainError):
    """Options or seats that cannot make a game (reported as a validation error)."""

    code = "validation-error"


@dataclass(frozen=True, slots=True)
class Command:
    """An order given to a game, e.g. PlayCard(seat=2, card=...)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. Subclasses are frozen dataclasses named in the past tense.

    Secrecy: `visible_to()` names the seats that may see the full data (None = everyone);
    everyone else sees `redacted()`. Once a game is finished every event is public.
    """

    def visible_to(self) -> tuple[int, ...] | None:
        return None

    def redacted(self) -> dict[str, Any]:
        return {}

    def actor(self) -> int | None:
        """The seat that caused the event, if one did."""
        return getattr(self, "seat", None)


@dataclass(frozen=True, slots=True)
class SeatCards(Event):
    """Cards that only `seat` may see (a dealt hand, a passed set): the others see a count."""

    seat: int
    cards: tuple[Card, ...]

    def visible_to(self) -> tuple[int, ...] | None:
        return (self.seat,)

    def redacted(self) -> dict[str, Any]:
        return {"seat": self.seat, "count": len(self.cards)}


@dataclass(frozen=True, slots=True)
class Deal(Command):
    """Deal a freshly shuffled deck. The shuffle (G2) and the random first leader (G4) are made
    outside the domain and arrive here; `salt` makes the published commitment unguessable."""

    deck: tuple[Card, ...]  # in deal order
    salt: str
    first_leader: int


@dataclass(frozen=True, slots=True)
class Automatic(Command):
    """Work no seat does: the game asked for it through `GameType.automatic` (e.g. "scoring"),
    and a worker (or a simulation) gives this order when nobody is left to act."""

    kind: str


def fold(evolve: Callable[[S, Any], S], state: S, events: Iterable[Any]) -> S:
    for event in events:
        state = evolve(state, event)
    return state
