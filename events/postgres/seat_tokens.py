"""Seat tokens and seat invites: random bearer secrets (256 bits), shown once, stored only as
SHA-256 hashes (a fast hash is enough for secrets this long).

A seat has one token at a time: a new one replaces it, and leaving deletes it, so a token is
looked up in the table on every request (an index on the hash) rather than from a cache that
another process could not revoke. An open seat has an invite, which joining must show.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from uuid import UUID

import psycopg
from psycopg.rows import tuple_row


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def save(conn: psycopg.Connection, game_id: UUID, seat: int, token: str) -> None:
    """The seat's token from now on; any token it had before stops working in this commit."""
    conn.execute(
        "INSERT INTO seat_tokens (game_id, seat, token_hash) VALUES (%s, %s, %s)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET token_hash = EXCLUDED.token_hash,"
        " created_at = now()",
        (game_id, seat, token_hash(token)),
    )


def revoke(conn: psycopg.Connection, game_id: UUID, seat: int) -> None:
    conn.execute("DELETE FROM seat_tokens WHERE game_id = %s AND seat = %s", (game_id, seat))


def seat_for(conn: psycopg.Connection, game_id: UUID, token: str) -> int | None:
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            "SELECT seat FROM seat_tokens WHERE game_id = %s AND token_hash = %s",
            (game_id, token_hash(token)),
        )
        .fetchone()
    )
    return None if row is None else row[0]


def save_invite(conn: psycopg.Connection, game_id: UUID, seat: int, invite: str) -> None:
    conn.execute(
        "INSERT INTO seat_invites (game_id, seat, invite_hash) VALUES (%s, %s, %s)",
        (game_id, seat, token_hash(invite)),
    )


def invite_matches(conn: psycopg.Connection, game_id: UUID, seat: int, invite: str) -> bool:
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            "SELECT invite_hash FROM seat_invites WHERE game_id = %s AND seat = %s",
            (game_id, seat),
        )
        .fetchone()
    )
    return row is not None and hmac.compare_digest(row[0], token_hash(invite))
