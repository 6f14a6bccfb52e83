"""GET /me/stream: one Server-Sent Events stream of a player's notices, for all its tables.

Each notice is `id: <number>`, `event: <kind>`, `data: {"id", "kind", "game_id", "version",
"seat", "at"}`: never a card. A client resumes with `Last-Event-ID` (or `?after=`), as with a
game's stream, and gets every notice after that number once, in order. The stream belongs to
the key that opened it (with the key itself, or a ticket the key minted: POST
/me/stream-ticket, for a browser's EventSource): once the key is rotated it ends, before
anything more is sent.

Served by the API worker's greenlet, or held by Pushpin (api/streams/grip.py): a player's notices
are few, so Pushpin is only told that some came (a hint on the player's channel) and comes back
for them. Either way each wake-up is one statement (is the key still the player's, and what came
after the last number sent).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from flask import Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from api.http.auth import MAX_TOKEN_LENGTH, bearer_token, current_player
from api.http.limits import client_address, limited
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import query
from api.schemas.players import NoticeStreamQuery
from api.services import services
from api.streams import bp
from api.streams import grip as grip
from api.streams.game_stream import (
    HEADERS,
    acquired,
    stale_seconds,
    stream_hub,
    tickets,
    told_publisher,
)
from api.streams.live import preamble
from events import json_text
from events.bootstrap import new_notifier
from events.credentials import token_hash
from events.event_text import sse_comment
from events.player_records import NoticeRow
from events.players import Players
from events.stream_channels import (
    CREDENTIAL,
    PLAYER,
    STREAM,
    credential_channel,
    player_channel,
)
from events.wakeups import PLAYER_CHANNEL, Notifier

BATCH = 200
LAST_EVENT_ID = re.compile(r"[0-9]{1,18}")
NOTICE_STREAM_QUERY = NoticeStreamQuery()
_NOTIFIER_LOCK = threading.Lock()


@bp.get("/me/stream")
@limited("reads")
def my_stream() -> ResponseReturnValue:
    params = query(NOTICE_STREAM_QUERY)
    if "lease" in params:
        return _next_part(params["lease"])
    svc = services()
    if "ticket" in params:
        player_id, credential = _ticket_holder(params["ticket"])
    else:
        player_id, credential = _key_holder(bearer_token() or params.get("access_token"))
    after = _resume_point(params.get("after", 0))
    owners = [f"address-{client_address()}", f"credential-{credential[:32]}"]
    slots = stream_hub().slots
    settings = svc.settings
    if grip.through_pushpin():
        slot = acquired(slots, owners, True, pushpin=True)
        own = told_publisher(slot, None, None)
        return _part(player_id, credential, after, first=True, own=own)
    lifetime = stale_seconds(settings)
    slot = acquired(slots, owners, True, pushpin=False)
    body = notice_stream(
        player_id,
        credential,
        after,
        svc.players,
        _notifier(),
        settings.stream_heartbeat_seconds,
        settings.stream_max_seconds,
        lambda: slots.renew(slot, lifetime),
    )
    response = Response(body, mimetype="text/event-stream", headers=HEADERS)
    response.call_on_close(lambda: slots.release(slot))
    return response


@bp.post("/me/stream-ticket")
@limited("actions")
def new_notice_ticket() -> ResponseReturnValue:
    """A short-lived, single-use ticket for `?ticket=` on /me/stream: a browser's EventSource
    cannot send the key in a header, and a key in a URL ends up in logs and histories."""
    player = current_player()
    key = bearer_token()
    assert key is not None  # current_player found the player by it
    ticket, expires = tickets().issue_for_player(player.id, token_hash(key))
    return jsonify({"ticket": ticket, "expires_at": iso(expires)}), 201


def _key_holder(key: str | None) -> tuple[UUID, str]:
    """The player a key is, and the key's hash (401 unless it is a player's key now)."""
    player = services().players.by_key(key) if key and len(key) <= MAX_TOKEN_LENGTH else None
    if key is None or player is None:
        raise Problem("unauthorized", "a player's stream needs its key")
    return player.id, token_hash(key)


def _ticket_holder(ticket: str) -> tuple[UUID, str]:
    """The player and key hash a ticket stands for (401 if it is unknown, used, expired, a
    game's, or its key was replaced since)."""
    redeemed = tickets().redeem_for_player(ticket)
    if redeemed is None or not services().players.holds_key(*redeemed):
        raise Problem(
            "unauthorized",
            "the ticket is unknown, used, expired, not a notice stream's, or its key has been"
            " replaced",
        )
    return redeemed


def _part(player: UUID, credential: str, after: int, first: bool, own: list[str]) -> Response:
    """What Pushpin sends next on a held notice stream: every notice after `after`, read with
    the key's validity in one statement. A hint on the player's channel, which never follows
    the position held there, brings Pushpin back for more."""
    text, last = [preamble(after, "notices after")] if first else [], after
    while True:
        players = services().players
        valid, notices = players.notices_for_key(player, credential, last, BATCH)
        if not valid:  # the key was rotated: nothing more for it
            return Response("", mimetype="text/event-stream", headers=HEADERS)
        text += [_frame(notice) for notice in notices]
        last = notices[-1].number if notices else last
        if len(notices) < BATCH:
            break
    response = Response("".join(text), mimetype="text/event-stream", headers=HEADERS)
    held: list[tuple[str, int | None]] = [(player_channel(player), last)]
    held.append((credential_channel(credential), 0))
    held += [(name, 0) for name in own]
    link = f"/me/stream?lease={grip.sign({'notices': True})}"
    return grip.hold(response, held, link, services().settings.stream_heartbeat_seconds)


def _next_part(token: str) -> Response:
    """Pushpin, back for a notice stream: whose it is and where it stands are its channels'
    positions (Grip-Last); the link is the same for every notice stream."""
    lease = grip.verified(token) if grip.through_pushpin() else None
    if lease is None or "notices" not in lease:
        raise Problem("unauthorized", "the lease is unknown or expired")
    credential, player, last = None, None, ""
    for name, position in grip.last_ids().items():
        if name.startswith(CREDENTIAL):
            credential = name.removeprefix(CREDENTIAL)
        elif name.startswith(PLAYER):
            player, last = name.removeprefix(PLAYER), position
    if credential is None or player is None or not last.isdigit():
        raise Problem("unauthorized", "the stream's channels are not as the app held them")
    own = [name for name in grip.last_ids() if name.startswith(STREAM)]
    return _part(UUID(player), credential, int(last), first=False, own=own)


def notice_stream(
    player_id: UUID,
    credential: str,
    after: int,
    players: Players,
    notifier: Notifier,
    heartbeat: float,
    max_seconds: float,
    renew: Callable[[], None] = lambda: None,
) -> Iterator[str]:
    """SSE text: the notices after number `after`, then each new one, until the key hashing to
    `credential` is no longer the player's (or `max_seconds` pass, or the server shuts down).
    Subscribes before the first read, so no notice can slip between a read and the wait."""
    with notifier.subscribe(player_id) as subscription:
        yield preamble(after, "notices after")
        last, started = after, time.monotonic()
        last_comment = started
        while True:
            valid, notices = players.notices_for_key(player_id, credential, last, BATCH)
            if not valid or notifier.closed:
                return  # the key was rotated: nothing more for it
            if notices:
                yield "".join(_frame(notice) for notice in notices)
                last = notices[-1].number
                if len(notices) == BATCH:
                    continue
            now = time.monotonic()
            if max_seconds and now - started >= max_seconds:
                return
            if now - last_comment >= heartbeat:
                yield sse_comment("keep-alive")
                renew()
                last_comment = now
            wait = min(notifier.poll_timeout(heartbeat), last_comment + heartbeat - now)
            if max_seconds:
                wait = min(wait, started + max_seconds - now)
            subscription.wait(max(0.0, wait))


def notice_json(notice: NoticeRow) -> dict[str, Any]:
    return {
        "id": notice.number,
        "kind": notice.kind,
        "game_id": None if notice.game_id is None else str(notice.game_id),
        "version": notice.version,
        "seat": notice.seat,
        "at": iso(notice.created_at),
    }


def _frame(notice: NoticeRow) -> str:
    data = json_text.dumps(notice_json(notice)).decode("utf-8")
    return f"id: {notice.number}\nevent: {notice.kind}\ndata: {data}\n\n"


def _notifier() -> Notifier:
    """This process's one LISTEN on the players' channel, started with its first stream."""
    with _NOTIFIER_LOCK:
        notifier: Notifier | None = current_app.extensions.get("cardroom_player_notifier")
        if notifier is None:
            notifier = new_notifier(services().settings.database_url, PLAYER_CHANNEL)
            current_app.extensions["cardroom_player_notifier"] = notifier
        return notifier


def _resume_point(from_query: int) -> int:
    header = request.headers.get("Last-Event-ID")
    if not header:
        return from_query
    if not LAST_EVENT_ID.fullmatch(header):
        raise Problem(
            "validation-error",
            "Last-Event-ID must be a notice number",
            errors={"Last-Event-ID": ["must be 1-18 digits"]},
        )
    return int(header)
