"""The matchmaking queue: POST /me/queue joins it (one queue per player), GET /me/queue says
where the player stands (waiting, with its rating window now, or the table it was seated at),
DELETE /me/queue leaves it. The matcher on the workers seats players (events/matchmaking/)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import current_player
from api.http.limits import limited, queue_join_quota
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import json_body
from api.resources.games.common import created
from api.resources.players.blueprint import bp
from api.schemas.queue import JoinQueueSchema
from api.services import services
from events.matchmaking.queue import AlreadyMatched, QueueRequest, Standing

JOIN = JoinQueueSchema()
PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}


@bp.post("/me/queue")
@limited("actions")
def join_queue() -> ResponseReturnValue:
    player = current_player()
    body = json_body(JOIN)
    request = QueueRequest(
        body["type"], body.get("players"), body["rated"], body["bots_after_seconds"]
    )
    with queue_join_quota(str(player.id)):
        standing = services().queue.join(player.id, request)
    return created(_standing(standing), {"Location": "/me/queue", **PRIVATE})


@bp.get("/me/queue")
@limited("reads")
def my_queue() -> ResponseReturnValue:
    player = current_player()
    response = jsonify(_standing(services().queue.standing(player.id)))
    response.headers.update(PRIVATE)
    return response


@bp.delete("/me/queue")
@limited("actions")
def leave_queue() -> ResponseReturnValue:
    player = current_player()
    try:
        services().queue.leave(player.id)
    except AlreadyMatched as matched:
        found = matched.match
        raise Problem(
            "already-matched", matched.message, game_id=str(found.game_id), seat=found.seat
        ) from None
    return Response(status=204)


def _standing(standing: Standing) -> dict[str, Any]:
    if standing.entry is not None:
        entry, skill, window = standing.entry, standing.skill, standing.window
        assert skill is not None and window is not None  # a waiting player's
        return {
            "status": "waiting",
            "type": entry.game_type,
            "players": list(entry.sizes),
            "rated": entry.rated,
            "bots_after_seconds": entry.bots_after_seconds,
            "since": iso(entry.queued_at),
            "waited_seconds": round(entry.waited, 3),
            "rating": {
                "rating": round(skill.rating, 3),
                "uncertainty": round(skill.uncertainty, 3),
            },
            "window": {"low": round(window[0], 3), "high": round(window[1], 3)},
            "match": None,
        }
    match = standing.match
    assert match is not None  # neither waiting nor matched is a 404 before this
    return {
        "status": "matched",
        "type": match.game_type,
        "players": list(match.sizes),
        "rated": match.rated,
        "bots_after_seconds": match.bots_after_seconds,
        "since": iso(match.queued_at),
        "waited_seconds": round((match.matched_at - match.queued_at).total_seconds(), 3),
        "rating": None,
        "window": None,
        "match": {
            "game_id": str(match.game_id),
            "seat": match.seat,
            "matched_at": iso(match.matched_at),
        },  # fmt: skip
    }
