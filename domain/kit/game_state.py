"""What every game's state has: the fields the shared helpers read or replace.

A game's state is a frozen dataclass of its own; the helpers of `dispatch` (phase), `dealing`
(hands), `game_view` (round, phase, players, commitment, outcome) and `outcome` (phase, outcome)
rely on these fields alone. Trick games add `tricks.TrickState`, passing games
`passing.PassingState`. Read-only properties, so a frozen dataclass satisfies them.
"""

from __future__ import annotations

from dataclasses import Field, dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from domain.kit.cards import Card

DEALING, FINISHED = "dealing", "finished"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game's result, as its state keeps it (outcome.py's GameEnded sets it)."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    final: dict[str, dict[str, int]]


class GameState(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    """A dataclass (what `dataclasses.replace` needs): the helpers' evolves replace fields."""

    @property
    def players(self) -> int: ...

    @property
    def phase(self) -> str:
        """DEALING while the game waits for a deal, FINISHED once over; the rest is the game's."""
        ...

    @property
    def round(self) -> int: ...

    @property
    def commitment(self) -> str | None:
        """The last deal's published commitment (domain/shared/dealing.py)."""
        ...

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...

    @property
    def outcome(self) -> Outcome | None: ...


S = TypeVar("S", bound=GameState)


def is_finished(state: GameState) -> bool:
    return state.phase == FINISHED
