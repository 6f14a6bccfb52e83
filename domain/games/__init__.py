"""The registry of game types the service offers, by id, and what a card of any of them may be.

A game is registered by one line: its `GAME` (built with domain.game_kit.build_game) in
GAME_TYPES. Everything else that depends on the games (the API's actions, suits and ranks, the
audit's origins) is read from here when it is used.
"""

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


def card_suits() -> tuple[str, ...]:
    """Every suit of every registered game, in order of registration."""
    return tuple(dict.fromkeys(suit for game in GAME_TYPES.values() for suit in game.suits))


def card_ranks() -> tuple[int, int]:
    """The lowest and the highest rank of any registered game's cards."""
    ranks = [rank for game in GAME_TYPES.values() for rank in game.ranks]
    return min(ranks), max(ranks)
