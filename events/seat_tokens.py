"""Seat tokens: random bearer secrets (256 bits), shown once, stored only as SHA-256 hashes.

A fast hash is enough because tokens are high-entropy; lookups compare every hash of the game
in constant time so timing tells nothing about how much of a guess was right.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
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


def seat_for_token(conn, game_id: UUID, token: str) -> int | None:
    wanted = token_hash(token)
    rows = conn.execute(
        "SELECT seat, token_hash FROM seat_tokens WHERE game_id = %s", (game_id,)
    ).fetchall()
    found = None
    for row in rows:
        if hmac.compare_digest(row["token_hash"], wanted):
            found = row["seat"]
    return found
