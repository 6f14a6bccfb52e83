"""Stream tickets: what a browser's EventSource shows instead of its seat token or player key,
which would otherwise travel in the URL (and into logs and histories). A ticket is a random
secret, good once, for about a minute, for one seat of one game's stream or for one player's
notice stream; Redis keeps only its hash. It stands for the credential that minted it (the
token's or key's hash): once that credential is rotated or revoked, the ticket is void, and the
stream it opened is that credential's."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import cast
from uuid import UUID

import redis

TICKET_SECONDS = 60
PLAYER = "player"  # what a notice stream's ticket holds in place of a game's id


class StreamTickets:
    def __init__(self, connection: redis.Redis, prefix: str) -> None:
        self._redis = connection
        self._prefix = prefix

    def issue(self, game_id: UUID, seat: int, credential: str) -> tuple[str, datetime]:
        """A new ticket for the seat whose token hashes to `credential`, and when it expires
        (raises redis.RedisError while Redis is down)."""
        return self._issue(f"{game_id}:{seat}:{credential}")

    def issue_for_player(self, player_id: UUID, credential: str) -> tuple[str, datetime]:
        """A new ticket for the notice stream of the player whose key hashes to `credential`."""
        return self._issue(f"{PLAYER}:{player_id}:{credential}")

    def redeem(self, game_id: UUID, ticket: str) -> tuple[int, str] | None:
        """The seat and credential the ticket was issued for, once; None if it is unknown,
        used, expired or of another game."""
        found = self._redeem(ticket)
        if found is None:
            return None
        game, seat, credential = found.split(":", 2)
        return (int(seat), credential) if game == str(game_id) else None

    def redeem_for_player(self, ticket: str) -> tuple[UUID, str] | None:
        """The player and credential a notice stream's ticket was issued for, once; None if it
        is unknown, used, expired or a game's."""
        found = self._redeem(ticket)
        if found is None:
            return None
        kind, player, credential = found.split(":", 2)
        return (UUID(player), credential) if kind == PLAYER else None

    def _issue(self, value: str) -> tuple[str, datetime]:
        ticket = secrets.token_urlsafe(32)
        self._redis.set(self._key(ticket), value, ex=TICKET_SECONDS)
        return ticket, datetime.now(UTC) + timedelta(seconds=TICKET_SECONDS)

    def _redeem(self, ticket: str) -> str | None:
        if len(ticket) > 256:
            return None
        found = cast(bytes | None, self._redis.getdel(self._key(ticket)))
        return None if found is None else found.decode()

    def _key(self, ticket: str) -> str:
        digest = hashlib.sha256(ticket.encode("utf-8", "surrogatepass")).hexdigest()
        return f"{self._prefix}:{digest}"
