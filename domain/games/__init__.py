"""The registry of game types the service offers, by id, and what a card of any of them may be.

A game is its folder, `domain/games/<id>/`, whose `GAME` is built with
domain.kit.build.build_game, and one line here naming that folder in REGISTERED. Everything else
that depends on the games (the API's actions, suits and ranks, the spec `make spec` writes, the
web client's words, the rules pages, the audit's origins) is read from here when it is used.
"""

from __future__ import annotations

from importlib import import_module

from domain.kit.game_type import GameType

# One line per game, in the order the service lists them.
REGISTERED = (
    "trick_and_snipers",
    "saint_poker",
    "st_patrick",
    "ouroboros_trick",
)


def _game(folder: str) -> GameType:
    game = import_module(f"{__name__}.{folder}").GAME
    if not isinstance(game, GameType) or game.id != folder:
        raise TypeError(f"domain/games/{folder}/ must give GAME, a GameType with id {folder!r}")
    return game


GAME_TYPES: dict[str, GameType] = {folder: _game(folder) for folder in REGISTERED}


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
