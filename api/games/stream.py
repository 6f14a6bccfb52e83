"""GET /games/{id}/events/stream: the event log as Server-Sent Events, live until the game ends.

Everything that can fail (unknown game, wrong token, bad resume point, no stream slot left)
fails before the first byte, as problem+json; once streaming, only the connection can end it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from uuid import UUID

from flask import Response, current_app, jsonify, request
from marshmallow import Schema, fields, validate

from api.auth import bearer_token, caller_seat, checked_seat
from api.games import bp
from api.games.feeds import Feeds
from api.games.live import BATCH, StreamSpec, event_stream
from api.limits import client_address, limited
from api.problems import Problem, problem_response
from api.rendering import iso
from api.requests import game_uuid, query
from api.services import services
from api.stream_capacity import StreamCapacity, server_capacity
from api.stream_handoff import ENVIRON_KEY, Handoff, StreamLease
from api.stream_slots import StreamSlots
from api.stream_tickets import StreamTickets
from events import metrics
from events.credentials import token_hash
from events.postgres.notifications import GameNotifier

MAX_VERSION = 2**31 - 1
RETRY_SECONDS = 5  # after a stream of the same client ends
LAST_EVENT_ID = re.compile(r"[0-9]{1,9}")
_HUB_LOCK = threading.Lock()


class StreamQuery(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_VERSION))
    access_token = fields.String()
    ticket = fields.String(validate=validate.Length(1, 256))


STREAM_QUERY = StreamQuery()


@dataclass
class StreamHub:
    """Per API process: the one LISTEN connection, the caps on open streams (the server's
    capacity, shared by its processes, and each client's), and the games' feeds."""

    notifier: GameNotifier
    # Spectators may take only part of the capacity: the rest stays for seats (STREAM_SEAT_SHARE).
    capacity: StreamCapacity
    per_client: StreamSlots
    feeds: Feeds


def stream_hub() -> StreamHub:
    with _HUB_LOCK:
        hub = current_app.extensions.get("cardroom_streams")
        if hub is None:
            settings = services().settings
            hub = StreamHub(
                GameNotifier(settings.database_url),
                server_capacity(settings.max_streams, _spectator_slots(settings)),
                client_slots(settings, services().redis),
                Feeds(services().queries, BATCH),
            )
            current_app.extensions["cardroom_streams"] = hub
        return hub


def client_slots(settings, connection) -> StreamSlots:
    """The caps per client address and token (MAX_STREAMS_PER_CLIENT), shared in Redis."""
    return StreamSlots(
        connection,
        f"{settings.queue_name}-streams",
        settings.max_streams_per_client,
        settings.stream_heartbeat_seconds,
    )


@bp.get("/games/<game_id>/events/stream")
@limited("reads")
def stream_events(game_id: str):
    params = query(STREAM_QUERY)
    after = _resume_point(params.get("after", 0))
    game = game_uuid(game_id)
    token = bearer_token() or params.get("access_token") or None
    svc = services()
    seat: int | None
    credential: str | None = None
    if "ticket" in params:
        svc.queries.seat_at(game, None)  # 404 for an unknown game
        seat, credential = _ticket_seat(game, params["ticket"])
    else:  # 404 for an unknown game, then 401 for a token that acts for no seat of it
        seat = checked_seat(token, svc.queries.seat_at(game, token))
        if seat is not None and token is not None:
            credential = token_hash(token)
    hub = stream_hub()
    owners = [f"address-{client_address()}"]
    if credential is not None:  # the credential's streams, opened with its token or tickets
        owners.append(f"credential-{credential[:32]}")
    slot = hub.per_client.acquire(owners)
    if slot is None:
        metrics.RATE_LIMITED.labels("streams-per-client").inc()
        raise Problem(
            "rate-limited",
            f"{svc.settings.max_streams_per_client} streams are open for this client already",
            retry_after=RETRY_SECONDS,
        )
    seated = seat is not None
    if not hub.capacity.acquire(seated):
        hub.per_client.release(slot, owners)
        response = problem_response(
            503, "unavailable", "this server holds as many streams as it can; retry"
        )
        response.headers["Retry-After"] = "1"
        return response
    settings = svc.settings
    spec = StreamSpec(
        game,
        seat,
        after,
        settings.stream_heartbeat_seconds,
        settings.stream_max_seconds,
        credential,
    )
    body = event_stream(
        spec, hub.feeds.of(game), hub.notifier, lambda: hub.per_client.refresh(slot, owners)
    )
    response = Response(body, mimetype="text/event-stream")
    response.headers.update(
        {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Vary": "Authorization"}
    )
    lease = StreamLease(
        lambda: hub.capacity.release(seated), lambda: hub.per_client.release(slot, owners)
    )
    # Released when the server closes the response, even if the body was never iterated.
    response.call_on_close(lease.end)
    # The stream process serves it, if this server runs one (api/stream_handoff.py).
    request.environ[ENVIRON_KEY] = Handoff(lease, game, seat, after, slot, owners, credential)
    return response


@bp.post("/games/<game_id>/stream-ticket")
@limited("actions")
def new_stream_ticket(game_id: str):
    """A short-lived, single-use ticket for the caller's seat, for `?ticket=` on the stream."""
    game = game_uuid(game_id)
    token = bearer_token()
    seat = caller_seat(game, token)
    if seat is None or token is None:
        raise Problem("unauthorized", "a stream ticket is for a seat: send its token")
    ticket, expires = tickets().issue(game, seat, token_hash(token))
    return jsonify({"ticket": ticket, "expires_at": iso(expires), "seat": seat}), 201


def tickets() -> StreamTickets:
    svc = services()
    return StreamTickets(svc.redis, f"{svc.settings.queue_name}-tickets")  # type: ignore[arg-type]


def _ticket_seat(game: UUID, ticket: str) -> tuple[int, str]:
    """The seat and credential of a ticket whose token is still the seat's (401 otherwise: a
    ticket minted with a token since rotated or revoked is void)."""
    redeemed = tickets().redeem(game, ticket)
    if redeemed is None or not services().queries.acts_for(game, *redeemed):
        raise Problem(
            "unauthorized",
            "the ticket is unknown, used, expired, of another game, or its token is no longer"
            " the seat's",
        )
    return redeemed


def _spectator_slots(settings) -> int:
    """Of `max_streams`, what spectators may hold: at least one, and one less than all."""
    kept = max(1, round(settings.max_streams * settings.stream_seat_share))
    return max(1, settings.max_streams - kept)


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
