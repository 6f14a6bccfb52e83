"""API action dicts -> game commands, by the command class's own fields."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from domain.games import GAME_TYPES
from domain.kit.codec import from_json, type_hints
from domain.kit.decider import Command, IllegalAction, InvalidSetup
from domain.kit.game_type import GameType


class InvalidAction(InvalidSetup):
    """An action that is not of the game's shape (unknown type, missing field): a 400."""


def is_action_of_a_game(action_type: object) -> bool:
    """An action of another registered game is well formed, just not allowed at this table."""
    return any(action_type in game.commands for game in GAME_TYPES.values())


def command_from_action(game_type: GameType, seat: int, action: Mapping[str, Any]) -> Command:
    action_type = action.get("type")
    command_class = game_type.commands.get(action_type) if isinstance(action_type, str) else None
    if command_class is None:
        error = IllegalAction if is_action_of_a_game(action_type) else InvalidAction
        raise error(
            f"{game_type.name} has no action {action_type!r}; "
            f"its actions are {', '.join(game_type.action_types)}"
        )
    names = [f.name for f in dataclasses.fields(command_class) if f.name != "seat"]
    missing = [name for name in names if action.get(name) is None]
    if missing:
        raise InvalidAction(f"{action_type} needs {', '.join(missing)}")
    extra = sorted(set(action) - set(names) - {"type", "expected_version"})
    if extra:
        raise InvalidAction(f"{action_type} takes no {', '.join(extra)}")
    hints = type_hints(command_class)
    values = {name: from_json(hints[name], action[name]) for name in names}
    # Every class of GameType.commands has a `seat` field; type[Command] cannot say so.
    return command_class(seat=seat, **values)  # type: ignore[call-arg]
