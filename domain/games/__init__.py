"""The registry of game types the service offers, by id."""

from __future__ import annotations

from domain.game_type import GameType
from domain.games.ouroboros_trick import GAME as OUROBOROS_TRICK
from domain.games.saint_poker import GAME as SAINT_POKER
from domain.games.st_patrick import GAME as ST_PATRICK
from domain.games.trick_and_snipers import GAME as TRICK_AND_SNIPERS

GAME_TYPES: dict[str, GameType] = {
    game.id: game for game in (TRICK_AND_SNIPERS, SAINT_POKER, ST_PATRICK, OUROBOROS_TRICK)
}


def get_game_type(game_type_id: str) -> GameType:
    """The game type with this id; KeyError if there is none."""
    return GAME_TYPES[game_type_id]
