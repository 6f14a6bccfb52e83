"""GET /games/{id}/events/stream: the event log as Server-Sent Events, live until the game ends.

Everything that can fail (unknown game, wrong token, bad resume point, no stream slot left)
fails before the first byte, as problem+json; once streaming, only the connection can end it.
A request that came through Pushpin is answered with the backlog and Pushpin's instructions
(api/streams/grip.py); any other is served here, by the worker's greenlet (api/streams/live.py).
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import redis
from flask import Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from api.http.auth import bearer_token, caller_seat, checked_seat
from api.http.limits import client_address, limited
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import game_uuid, query
from api.services import services
from api.streams import bp
from api.streams import grip as grip
from api.streams.feeds import Feeds
from api.streams.live import BATCH, StreamSpec, event_stream, preamble
from api.streams.slots import Slot, StreamSlots
from api.streams.tickets import StreamTickets
from events import stream_channels as channels
from events.bootstrap import new_notifier
from events.credentials import token_hash
from events.operations import metrics
from events.operations.settings import Settings
from events.stream_channels import (
    CREDENTIAL,
    STREAM,
    credential_channel,
    viewer_channel,
    viewer_of,
)
from events.wakeups import Notifier

MAX_VERSION = 2**31 - 1
RETRY_SECONDS = 5  # after a stream of the same client ends
STALE_SECONDS = 60.0  # a stream served here counts this long after its last heartbeat
LAST_EVENT_ID = re.compile(r"[0-9]{1,9}")
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Vary": "Authorization"}
_HUB_LOCK = threading.Lock()


class StreamQuery(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_VERSION))
    access_token = fields.String()
    ticket = fields.String(validate=validate.Length(1, 256))
    lease = fields.String(validate=validate.Length(1, 2048))  # Pushpin's next link


STREAM_QUERY = StreamQuery()


@dataclass
class StreamHub:
    """Per API process: the one LISTEN connection, the stream counts, and the games' feeds."""

    notifier: Notifier
    slots: StreamSlots
    feeds: Feeds


def stream_hub() -> StreamHub:
    with _HUB_LOCK:
        hub = current_app.extensions.get("cardroom_streams")
        if hub is None:
            settings = services().settings
            hub = StreamHub(
                new_notifier(settings.database_url),
                stream_slots(settings, services().redis),
                Feeds(services().queries, BATCH),
            )
            current_app.extensions["cardroom_streams"] = hub
        return hub


def stream_slots(settings: Settings, connection: redis.Redis) -> StreamSlots:
    return StreamSlots(
        connection,
        f"{settings.queue_name}-streams",
        settings.max_streams_per_client,
        settings.max_streams,
        settings.stream_seat_share,
    )


def stale_seconds(settings: Settings) -> float:
    return max(STALE_SECONDS, 4 * settings.stream_heartbeat_seconds)


def acquired(slots: StreamSlots, owners: list[str], seated: bool, pushpin: bool) -> Slot:
    """A slot, or the problem that refuses the stream: 429 past a client's cap, 503 past the
    server's. A stream Pushpin holds counts for LEASE_LIFETIME, in its owners' counts alone:
    Pushpin does not say when it ends, and its own limit bounds what it holds."""
    lifetime = grip.LEASE_LIFETIME if pushpin else stale_seconds(services().settings)
    slot = slots.acquire(owners, seated, lifetime, in_all=not pushpin)
    if slot == "client":
        metrics.RATE_LIMITED.labels("streams-per-client").inc()
        cap = services().settings.max_streams_per_client
        detail = f"{cap} streams are open for this client already"
        raise Problem("rate-limited", detail, retry_after=RETRY_SECONDS)
    if slot == "server":
        detail = "this server holds as many streams as it can; retry"
        raise Problem("unavailable", detail, retry_after=1)
    assert isinstance(slot, Slot)
    return slot


@bp.get("/games/<game_id>/events/stream")
@limited("reads")
def stream_events(game_id: str) -> ResponseReturnValue:
    params = query(STREAM_QUERY)
    game = game_uuid(game_id)
    if "lease" in params:
        return _next_part(game, params["lease"])
    after = _resume_point(params.get("after", 0))
    seat, credential = _viewer(game, params)
    owners = [f"address-{client_address()}"]
    if credential is not None:  # the credential's streams, opened with its token or tickets
        owners.append(f"credential-{credential[:32]}")
    settings = services().settings
    hub = stream_hub()
    pushpin = grip.through_pushpin()
    slot = acquired(hub.slots, owners, seat is not None, pushpin)
    if pushpin:
        return _part(
            game, seat, credential, after, first=True, own=told_publisher(slot, game, credential)
        )
    spec = StreamSpec(
        game,
        seat,
        after,
        settings.stream_heartbeat_seconds,
        settings.stream_max_seconds,
        credential,
    )
    lifetime = stale_seconds(settings)
    renew = lambda: hub.slots.renew(slot, lifetime)  # noqa: E731
    body = event_stream(spec, hub.feeds.of(game), hub.notifier, renew)
    response = Response(body, mimetype="text/event-stream", headers=HEADERS)
    # Released when the server closes the response, even if the body was never iterated.
    response.call_on_close(lambda: hub.slots.release(slot))
    return response


def told_publisher(slot: Slot, game: UUID | None, credential: str | None) -> list[str]:
    """What the stream publisher must know of a stream Pushpin holds: its credential (to end
    its streams once it no longer acts for its seat), and its end (STREAM_MAX_SECONDS), which
    gives it a channel of its own to close. Returns that channel, if any."""
    svc = services()
    prefix, max_seconds = svc.settings.queue_name, svc.settings.stream_max_seconds
    if game is not None and credential is not None:
        channels.watch(svc.redis, prefix, game, credential)
    if not max_seconds:
        return []
    channels.end_at(svc.redis, prefix, slot.id, time.time() + max_seconds)
    return [channels.stream_channel(slot.id)]


def _viewer(game: UUID, params: dict[str, Any]) -> tuple[int | None, str | None]:
    """The seat the stream shows (None: a spectator) and the credential it belongs to."""
    svc = services()
    if "ticket" in params:
        svc.queries.seat_at(game, None)  # 404 for an unknown game
        return _ticket_seat(game, params["ticket"])
    token = bearer_token() or params.get("access_token") or None
    # 404 for an unknown game, then 401 for a token that acts for no seat of it
    seat = checked_seat(token, svc.queries.seat_at(game, token))
    return seat, token_hash(token) if seat is not None and token is not None else None


def _part(
    game: UUID, viewer: int | None, credential: str | None, after: int, first: bool, own: list[str]
) -> Response:
    """What Pushpin sends next on a held stream: the events after `after` (all of them), and
    the instructions to hold it on; or, once nothing more will come, the end of the stream.
    `own`: the stream's own channels, held on as they are."""
    feed = stream_hub().feeds.of(game)
    text, last, ends = [preamble(after)] if first else [], after, False
    while True:
        reading = feed.read(last, viewer, object())  # a new generation: read the store
        if reading.ends(credential):
            ends, text = True, []  # its token was rotated or revoked: nothing more for it
            break
        text += [shown for _, shown in reading.events]
        last = reading.events[-1][0] if reading.events else last
        ends = reading.more is None  # the game is over and its final event is in `text`
        if not reading.more:
            break
    response = Response("".join(text), mimetype="text/event-stream", headers=HEADERS)
    if ends:
        return response
    held: list[tuple[str, int | None]] = [(viewer_channel(game, viewer), last)]
    if credential is not None:
        held.append((credential_channel(credential), 0))
    held += [(name, 0) for name in own]
    lease = grip.sign({"game": str(game)})
    link = f"/games/{game}/events/stream?lease={lease}"
    return grip.hold(response, held, link, services().settings.stream_heartbeat_seconds)


def _next_part(game: UUID, token: str) -> Response:
    """Pushpin, back for what a held stream missed. The link is the game's, the same for all
    its streams (Pushpin batches their updates by link): who the stream shows, where it stands
    and whose it is are its channels' positions (Grip-Last), as the app held them."""
    lease = grip.verified(token) if grip.through_pushpin() else None
    if lease is None or lease.get("game") != str(game):
        raise Problem("unauthorized", "the lease is unknown, expired, or of another game")
    credential, viewer, last = None, None, ""
    for name, position in grip.last_ids().items():
        if name.startswith(CREDENTIAL):
            credential = name.removeprefix(CREDENTIAL)
        elif (found := viewer_of(game, name))[0]:
            viewer, last = found[1], position
    if not LAST_EVENT_ID.fullmatch(last) or (viewer is not None and credential is None):
        raise Problem("unauthorized", "the stream's channels are not as the app held them")
    own = [name for name in grip.last_ids() if name.startswith(STREAM)]
    return _part(game, viewer, credential, int(last), first=False, own=own)


@bp.post("/games/<game_id>/stream-ticket")
@limited("actions")
def new_stream_ticket(game_id: str) -> ResponseReturnValue:
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
    return StreamTickets(svc.redis, f"{svc.settings.queue_name}-tickets")


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
