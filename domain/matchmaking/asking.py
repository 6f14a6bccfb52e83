"""What a player may ask the queue for: table sizes its game is played at."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kit.decider import InvalidSetup
from domain.kit.game_type import GameType

BOTS_AFTER_MOST = 3600  # seconds: a player who would wait longer for humans asks for no bots


def table_sizes(game_type: GameType, asked: Sequence[int] | None) -> tuple[int, ...]:
    """The sizes asked for, once each and in order; every size of the game when none is named.
    InvalidSetup for a size the game is not played at."""
    every = tuple(range(game_type.min_players, game_type.max_players + 1))
    if asked is None:
        return every
    wrong = sorted(set(asked) - set(every))
    if wrong or not asked:
        raise InvalidSetup(
            f"{game_type.name} is played at {every[0]} to {every[-1]} players, not"
            f" {', '.join(map(str, wrong)) or 'none'}"
        )
    return tuple(sorted(set(asked)))
