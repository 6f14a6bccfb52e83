"""The end of a game, alike in every game: who won, who lost, the final figures per seat."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from domain.kit.decider import Event
from domain.kit.game_state import FINISHED, Outcome, S


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    final: dict[str, dict[str, int]]


def game_ended(state: S, event: GameEnded) -> S:
    """Evolve: the game is over."""
    outcome = Outcome(event.winners, event.losers, event.final)
    return replace(state, phase=FINISHED, outcome=outcome)


def result_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """The view's `result`, once the game is over."""
    if outcome is None:
        return None
    return {
        "winners": list(outcome.winners),
        "losers": list(outcome.losers),
        "final": {seat: dict(figures) for seat, figures in outcome.final.items()},
    }
