"""GET /games/{id}/events/stream: the event log as Server-Sent Events, live until the game ends.

Everything that can fail (unknown game, wrong token, bad resume point, no stream slot left)
fails before the first byte, as problem+json; once streaming, only the connection can end it.
What follows the handshake is the same on both paths (api/streams/serving.py); a game's stream
reads its game's feed (api/streams/feeds.py), shared by all the game's streams in the process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from flask import Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, caller_seat, checked_seat
from api.http.limit_keys import client_address
from api.http.limits import limited
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import game_uuid, query
from api.schemas.streams import StreamQuery
from api.services import services
from api.streams import grip
from api.streams.blueprint import bp
from api.streams.feeds import GameFeed
from api.streams.hub import stream_hub
from api.streams.serving import Batch, held_now, held_part, not_as_held, opened, resume_point
from api.streams.tickets import StreamTickets
from events.credentials import token_hash
from events.stream_channels import viewer_channel, viewer_of
from events.wakeups import GAME_CHANNEL

MAX_VERSION = 2**31 - 1


STREAM_QUERY = StreamQuery(highest_after=MAX_VERSION)


@dataclass(frozen=True)
class GameSource:
    """A game's events as one viewer (a seat, or None: spectators) may see them."""

    game: UUID
    viewer: int | None
    credential: str | None
    feed: GameFeed
    notified_on: str = GAME_CHANNEL
    starts: str = "events after version"

    @property
    def subject(self) -> UUID:
        return self.game

    def read(self, after: int, generation: object | None) -> Batch:
        reading = self.feed.read(after, self.viewer, generation)
        last = reading.events[-1][0] if reading.events else after
        text = "".join(shown for _, shown in reading.events)
        return Batch(text, last, reading.more, reading.ends(self.credential))

    def held_on(self) -> tuple[str, str]:
        """The viewer's channel; and a next link that is the game's, the same for all its
        streams (Pushpin batches their updates by link): who a stream shows, where it stands
        and whose it is are its channels' positions, as the app held them."""
        link = f"/games/{self.game}/events/stream?lease={grip.sign({'game': str(self.game)})}"
        return viewer_channel(self.game, self.viewer), link


def game_source(game: UUID, viewer: int | None, credential: str | None) -> GameSource:
    return GameSource(game, viewer, credential, stream_hub().feeds.of(game))


@bp.get("/games/<game_id>/events/stream")
@limited("reads")
def stream_events(game_id: str) -> ResponseReturnValue:
    params = query(STREAM_QUERY)
    game = game_uuid(game_id)
    if "lease" in params:
        return _next_part(game, params["lease"])
    after = resume_point(params.get("after", 0), "an event version", 9)
    seat, credential = _viewer(game, params)
    owners = [f"address-{client_address()}"]
    if credential is not None:  # the credential's streams, opened with its token or tickets
        owners.append(f"credential-{credential[:32]}")
    return opened(game_source(game, seat, credential), after, owners, seated=seat is not None)


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


def _next_part(game: UUID, token: str) -> Response:
    """Pushpin, back for what a held stream of the game missed."""
    lease = grip.verified(token)
    if lease is None or lease.get("game") != str(game):
        raise Problem("unauthorized", "the lease is unknown, expired, or of another game")
    held = held_now(lambda name: viewer_of(game, name)[0], digits=9)
    viewer = viewer_of(game, held.channel)[1]
    if viewer is not None and held.credential is None:
        raise not_as_held()
    source = game_source(game, viewer, held.credential)
    return held_part(source, held.last, first=False, own=held.own)


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
