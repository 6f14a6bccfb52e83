"""GET /me/games: the player's tables, most recently moved first, with whose turn it is and
the player's deadline; `turn=mine` keeps those waiting for the player. Cursor pages, and an
ETag so that a client polling its inbox gets 304 while nothing moved."""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue

from api.http.auth import current_player
from api.http.cursors import decode_cursor, encode_cursor
from api.http.limits import limited
from api.http.rendering import iso
from api.http.requests import query
from api.resources.players.blueprint import bp
from api.schemas.players import InboxQuery
from api.services import services
from events import json_text
from events.player_records import InboxRow

INBOX_QUERY = InboxQuery()


@bp.get("/me/games")
@limited("reads")
def my_games() -> ResponseReturnValue:
    player = current_player()
    params = query(INBOX_QUERY)
    before = decode_cursor(params["cursor"]) if "cursor" in params else None
    limit = params["limit"]
    rows = services().players.inbox(
        player.id, params.get("status"), params.get("turn") == "mine", before, limit + 1
    )
    page = rows[:limit]
    more = len(rows) > limit
    body = {
        "items": [_item(row) for row in page],
        "next_cursor": encode_cursor((page[-1].updated_at, page[-1].game_id)) if more else None,
    }
    etag = '"' + hashlib.sha256(json_text.dumps(body)).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        return Response(status=304, headers=headers)
    response = jsonify(body)
    response.headers.update(headers)
    return response


def _item(row: InboxRow) -> dict[str, Any]:
    return {
        "game_id": str(row.game_id),
        "type": row.game_type,
        "status": row.status,
        "seat": row.seat,
        "my_turn": row.my_turn and row.status == "active",
        "deadline": iso(row.deadline) if row.deadline and row.my_turn else None,
        "version": row.version,
        "updated_at": iso(row.updated_at),
        "last_acted_version": row.last_acted_version,
        "moved_since_my_move": row.version > row.last_acted_version,
    }
