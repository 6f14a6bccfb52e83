"""GET /me/stream: one Server-Sent Events stream of a player's notices, for all its tables.

Each notice is `id: <number>`, `event: <kind>`, `data: {"id", "kind", "game_id", "version",
"seat", "at"}`: never a card. A client resumes with `Last-Event-ID` (or `?after=`), as with a
game's stream, and gets every notice after that number once, in order. The stream belongs to
the key that opened it (with the key itself, or a ticket the key minted: POST
/me/stream-ticket, for a browser's EventSource): once the key is rotated it ends, before
anything more is sent.

What follows the handshake is the same on both paths (api/streams/serving.py). A player's
notices are few, so through Pushpin the publisher only hints that some came, on the player's
channel, and Pushpin comes back for them. Either way each read is one statement (is the key
still the player's, and what came after the last number sent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from flask import Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import MAX_TOKEN_LENGTH, bearer_token, current_player
from api.http.limit_keys import client_address
from api.http.limits import limited
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import query
from api.schemas.streams import StreamQuery
from api.services import services
from api.streams import grip
from api.streams.blueprint import bp
from api.streams.game_stream import tickets
from api.streams.serving import Batch, held_now, held_part, not_as_held, opened, resume_point
from events import json_text
from events.credentials import token_hash
from events.player_records import NoticeRow
from events.players import Players
from events.stream_channels import PLAYER, player_channel
from events.wakeups import PLAYER_CHANNEL

BATCH = 200
NOTICE_STREAM_QUERY = StreamQuery(highest_after=2**62)


@dataclass(frozen=True)
class NoticeSource:
    """A player's notices, for as long as the key hashing to `credential` is the player's."""

    player: UUID
    credential: str
    players: Players
    notified_on: str = PLAYER_CHANNEL
    starts: str = "notices after"
    game: None = None  # its key's rotation is the player's, not a game's

    @property
    def subject(self) -> UUID:
        return self.player

    def read(self, after: int, generation: object | None) -> Batch:
        valid, notices = self.players.notices_for_key(self.player, self.credential, after, BATCH)
        last = notices[-1].number if notices else after
        text = "".join(_frame(notice) for notice in notices)
        return Batch(text, last, len(notices) == BATCH, revoked=not valid)

    def held_on(self) -> tuple[str, str]:
        """The player's channel (a hint there, which never follows the position held, brings
        Pushpin back); and a next link that is the same for every notice stream."""
        return player_channel(self.player), f"/me/stream?lease={grip.sign({'notices': True})}"


@bp.get("/me/stream")
@limited("reads")
def my_stream() -> ResponseReturnValue:
    params = query(NOTICE_STREAM_QUERY)
    if "lease" in params:
        return _next_part(params["lease"])
    if "ticket" in params:
        player_id, credential = _ticket_holder(params["ticket"])
    else:
        player_id, credential = _key_holder(bearer_token() or params.get("access_token"))
    after = resume_point(params.get("after", 0), "a notice number", 18)
    owners = [f"address-{client_address()}", f"credential-{credential[:32]}"]
    source = NoticeSource(player_id, credential, services().players)
    return opened(source, after, owners, seated=True)


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


def _next_part(token: str) -> Response:
    """Pushpin, back for a notice stream."""
    lease = grip.verified(token)
    if lease is None or "notices" not in lease:
        raise Problem("unauthorized", "the lease is unknown or expired")
    held = held_now(lambda name: _player_of(name) is not None, digits=18)
    player = _player_of(held.channel)
    if held.credential is None or player is None:
        raise not_as_held()
    source = NoticeSource(player, held.credential, services().players)
    return held_part(source, held.last, first=False, own=held.own)


def _player_of(channel: str) -> UUID | None:
    try:
        return UUID(channel.removeprefix(PLAYER)) if channel.startswith(PLAYER) else None
    except ValueError:
        return None


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
