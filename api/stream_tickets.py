"""Stream tickets: what a browser's EventSource shows instead of its seat token, which would
otherwise travel in the URL (and into logs and histories). A ticket is a random secret, good
once, for one seat of one game, for about a minute; Redis keeps only its hash. It stands for the
credential that minted it (the seat token's hash): once that token is rotated or revoked, the
ticket is void, and the stream it opened is that credential's."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import cast
from uuid import UUID

import redis

TICKET_SECONDS = 60


class StreamTickets:
    def __init__(self, connection: redis.Redis, prefix: str) -> None:
        self._redis = connection
        self._prefix = prefix

    def issue(self, game_id: UUID, seat: int, credential: str) -> tuple[str, datetime]:
        """A new ticket for the seat whose token hashes to `credential`, and when it expires
        (raises redis.RedisError while Redis is down)."""
        ticket = secrets.token_urlsafe(32)
        self._redis.set(self._key(ticket), f"{game_id}:{seat}:{credential}", ex=TICKET_SECONDS)
        return ticket, datetime.now(UTC) + timedelta(seconds=TICKET_SECONDS)

    def redeem(self, game_id: UUID, ticket: str) -> tuple[int, str] | None:
        """The seat and credential the ticket was issued for, once; None if it is unknown,
        used, expired or of another game."""
        if len(ticket) > 256:
            return None
        found = cast(bytes | None, self._redis.getdel(self._key(ticket)))
        if found is None:
            return None
        game, seat, credential = found.decode().split(":", 2)
        return (int(seat), credential) if game == str(game_id) else None

    def _key(self, ticket: str) -> str:
        digest = hashlib.sha256(ticket.encode("utf-8", "surrogatepass")).hexdigest()
        return f"{self._prefix}:{digest}"
