"""GET /games/{id}/events/stream: the event log as Server-Sent Events, live until the game ends.

Everything that can fail (unknown game, wrong token, bad resume point, no stream slot left)
fails before the first byte, as problem+json; once streaming, only the connection can end it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from flask import Response, current_app, request
from marshmallow import Schema, fields, validate

from api.auth import bearer_token, caller_seat
from api.games import bp
from api.games.live import StreamSpec, event_stream
from api.problems import Problem, problem_response
from api.requests import game_uuid, query
from api.services import services
from events.postgres.notifications import GameNotifier

MAX_VERSION = 2**31 - 1
LAST_EVENT_ID = re.compile(r"[0-9]{1,9}")
_HUB_LOCK = threading.Lock()


class StreamQuery(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_VERSION))
    access_token = fields.String()


STREAM_QUERY = StreamQuery()


@dataclass
class StreamHub:
    """Per API process: the one LISTEN connection, and the slots that cap open streams."""

    notifier: GameNotifier
    slots: threading.BoundedSemaphore


def stream_hub() -> StreamHub:
    with _HUB_LOCK:
        hub = current_app.extensions.get("cardroom_streams")
        if hub is None:
            settings = services().settings
            hub = StreamHub(
                GameNotifier(settings.database_url),
                threading.BoundedSemaphore(settings.max_streams),
            )
            current_app.extensions["cardroom_streams"] = hub
        return hub


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str):
    params = query(STREAM_QUERY)
    after = _resume_point(params.get("after", 0))
    game = game_uuid(game_id)
    token = bearer_token() or params.get("access_token") or None
    svc = services()
    svc.queries.game(game)  # 404 for an unknown game
    seat = caller_seat(game, token)
    hub = stream_hub()
    if not hub.slots.acquire(blocking=False):
        response = problem_response(
            503, "unavailable", "this server holds as many streams as it can; retry"
        )
        response.headers["Retry-After"] = "1"
        return response
    settings = svc.settings
    spec = StreamSpec(
        game, seat, after, settings.stream_heartbeat_seconds, settings.stream_max_seconds
    )
    body = event_stream(spec, svc.queries, hub.notifier)
    response = Response(body, mimetype="text/event-stream")
    response.headers.update(
        {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Vary": "Authorization"}
    )
    # Released when the server closes the response, even if the body was never iterated.
    response.call_on_close(hub.slots.release)
    return response


def _resume_point(from_query: int) -> int:
    """`Last-Event-ID` (what an EventSource sends on reconnecting) wins over `?after=`; an
    empty one counts as absent."""
    header = request.headers.get("Last-Event-ID")
    if not header:
        return from_query
    if not LAST_EVENT_ID.fullmatch(header):
        raise Problem(
            "validation-error",
            "Last-Event-ID must be an event version",
            errors={"Last-Event-ID": ["must be 1-9 digits"]},
        )
    return int(header)
