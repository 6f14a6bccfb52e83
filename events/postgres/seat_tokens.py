"""Seat tokens: random bearer secrets (256 bits), shown once, stored only as SHA-256 hashes.

A fast hash is enough because tokens are high-entropy; lookups compare every hash of the game
in constant time so timing tells nothing about how much of a guess was right.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from uuid import UUID


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def save(conn, game_id: UUID, seat: int, token: str) -> None:
    conn.execute(
        "INSERT INTO seat_tokens (game_id, seat, token_hash) VALUES (%s, %s, %s)",
        (game_id, seat, token_hash(token)),
    )


def _hashes_of(conn, game_id: UUID) -> dict[str, int]:
    rows = conn.execute(
        "SELECT seat, token_hash FROM seat_tokens WHERE game_id = %s", (game_id,)
    ).fetchall()
    return {row["token_hash"]: row["seat"] for row in rows}


def _match(hashes: dict[str, int], wanted: str) -> int | None:
    found = None
    for stored, seat in hashes.items():  # every hash is compared: no early exit
        if hmac.compare_digest(stored, wanted):
            found = seat
    return found


class SeatTokens:
    """Resolves tokens to seats. Tokens are only ever added, so a per-process cache of each
    game's hashes is never wrong, only incomplete: a miss reads the table again."""

    def __init__(self, capacity: int = 20_000) -> None:
        self._cache: OrderedDict[UUID, dict[str, int]] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def seat_for(self, pool, game_id: UUID, token: str) -> int | None:
        """A connection is taken from `pool` only when the cache does not know the token."""
        wanted = token_hash(token)
        with self._lock:
            cached = self._cache.get(game_id, {})
        seat = _match(cached, wanted)
        if seat is None:
            with pool.connection() as conn:
                fresh = _hashes_of(conn, game_id)
            seat = _match(fresh, wanted)
            if fresh:
                self._remember(game_id, fresh)
        return seat

    def _remember(self, game_id: UUID, hashes: dict[str, int]) -> None:
        with self._lock:
            self._cache[game_id] = hashes
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._capacity:
                self._cache.popitem(last=False)
