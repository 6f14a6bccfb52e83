"""GET /game-types: what games this server hosts and how to set them up."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from api.limits import limited
from domain.games import GAME_TYPES
from domain.presence import TABLE_OPTIONS

bp = Blueprint("game_types", __name__)


@bp.get("/game-types")
@limited("reads")
def list_game_types() -> ResponseReturnValue:
    return jsonify(
        [
            {
                "id": game.id,
                "name": game.name,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "options": {**game.options, **TABLE_OPTIONS},
                "action_types": list(game.action_types),
                "bot_levels": list(game.bot_levels),
            }
            for game in GAME_TYPES.values()
        ]
    )
