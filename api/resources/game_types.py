"""GET /game-types: what games this server hosts and how to set them up."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from api.http.limits import limited
from api.web.client import view_module
from domain.games import GAME_TYPES
from domain.kit.game_type import GameType
from domain.tables.presence import TABLE_OPTIONS
from domain.tables.table import TABLE_EVENTS

bp = Blueprint("game_types", __name__)


@bp.get("/game-types")
@limited("reads")
def list_game_types() -> ResponseReturnValue:
    return jsonify([described(game) for game in GAME_TYPES.values()])


def described(game: GameType) -> dict[str, object]:
    """The game as a client needs it to set up a table and to draw one: a client keeps no
    table of games and no words of any game of its own (docs/api.md): `words` are the game's
    (its folder's words.py), `view` the web client's optional module for it."""
    return {
        "id": game.id,
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": {**game.options, **TABLE_OPTIONS},
        "action_types": list(game.action_types),
        "bot_levels": list(game.bot_levels),
        "suits": list(game.suits),
        "ranks": list(game.ranks),
        "face_ranks": list(game.face_ranks),
        "figures": [{"field": field, "term": term} for field, term in game.figures],
        "chart": dict(zip(("figure", "axis"), game.chart, strict=True)) if game.chart else None,
        "event_types": [*TABLE_EVENTS, *(name for name in game.events if name not in TABLE_EVENTS)],
        "words": {lang: dict(words) for lang, words in game.words.items()},
        "view": view_module(game.id),
    }
