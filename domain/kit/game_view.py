"""The frame every game's view shares; each game fills in its own public table and `you` block.

Key order is kept (the API writes keys in this order): round, phase, to_act, the game's public
figures (seats first), commitment; once over, result and what the end reveals; then `you`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.kit.game_state import FINISHED, GameState
from domain.kit.outcome import result_json
from domain.kit.templates import with_send


def game_view(
    state: GameState,
    seat: int | None,
    to_act: Iterable[int],
    public: dict[str, Any],
    you: Callable[[int], dict[str, Any]],
    shown_at_end: Callable[[], dict[str, Any]] = dict,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "round": state.round,
        "phase": state.phase,
        "to_act": list(to_act),
        **public,
        "commitment": state.commitment,
    }
    if state.phase == FINISHED:
        data["result"] = result_json(state.outcome)
        data.update(shown_at_end())
    if seat is not None and 0 <= seat < state.players:
        data["you"] = you(seat)
    return data


def you_json(
    seat: int, hand: list[dict[str, Any]], legal_actions: list[dict[str, Any]], **private: Any
) -> dict[str, Any]:
    """A seat's own block: its hand (as shown, sorted), what it may do (each template with the
    body it becomes), its private figures."""
    return {"seat": seat, "hand": hand, "legal_actions": with_send(legal_actions), **private}
