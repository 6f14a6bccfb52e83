"""GET /leaderboards/{type}: the type's rated players that are no longer provisional, best
displayed rating (mu - 3 sigma) first, ranked (equal displays share a rank), in cursor pages."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from api.http.cursors import decode_rating_cursor, encode_rating_cursor
from api.http.limits import limited
from api.http.problems import Problem
from api.http.requests import query
from api.resources.players.blueprint import bp
from api.resources.players.ratings import rating_json
from api.schemas.players import LeaderboardQuery
from api.services import services
from domain.games import GAME_TYPES
from events.ratings import LeaderRow, Rating

LEADERBOARD_QUERY = LeaderboardQuery()


@bp.get("/leaderboards/<game_type>")
@limited("reads")
def leaderboard(game_type: str) -> ResponseReturnValue:
    if game_type not in GAME_TYPES:
        raise Problem("not-found", "no such game type")
    params = query(LEADERBOARD_QUERY)
    after = decode_rating_cursor(params["cursor"]) if "cursor" in params else None
    limit = params["limit"]
    rows = services().players.leaderboard(game_type, after, limit + 1)
    page = rows[:limit]
    more = len(rows) > limit
    cursor = encode_rating_cursor(page[-1].end) if more else None
    return jsonify({"type": game_type, "items": [_item(row) for row in page],
                    "next_cursor": cursor})  # fmt: skip


def _item(row: LeaderRow) -> dict[str, Any]:
    item = {
        "rank": row.rank,
        "player_id": str(row.player_id),
        "name": row.name,
        **rating_json(Rating(row.mu, row.sigma, row.games)),
    }
    if row.bot_level is not None:
        item["bot"] = row.bot_level
    return item
