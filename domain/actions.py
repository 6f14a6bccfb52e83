"""API action dicts -> game commands, by the command class's own fields."""

from __future__ import annotations

import dataclasses

from domain.codec import from_json, type_hints
from domain.decider import Command, IllegalAction, InvalidSetup
from domain.game_type import GameType
from domain.games import GAME_TYPES

# Every game's action types: one of another game is well formed, just not allowed here.
KNOWN_ACTION_TYPES = frozenset(action for game in GAME_TYPES.values() for action in game.commands)


class InvalidAction(InvalidSetup):
    """An action that is not of the game's shape (unknown type, missing field): a 400."""


def command_from_action(game_type: GameType, seat: int, action: dict) -> Command:
    action_type = action.get("type")
    command_class = game_type.commands.get(action_type)  # type: ignore[arg-type]
    if command_class is None:
        error = IllegalAction if action_type in KNOWN_ACTION_TYPES else InvalidAction
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
    return command_class(seat=seat, **values)
