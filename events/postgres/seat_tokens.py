"""Seat tokens and seat invites: random bearer secrets (256 bits), shown once, stored only as
SHA-256 hashes (events/credentials.py).

A seat has one token at a time: a new one replaces it, and leaving deletes it, so a token is
looked up in the table on every request (an index on the hash) rather than from a cache that
another process could not revoke. An open seat has an invite, which joining must show.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import TupleRow

from events.credentials import token_hash
from events.postgres import store
from events.postgres.connections import Connection
from events.postgres.db import fetch_one, fetch_value
from events.postgres.named_statements import Statement
from events.records import StreamHead


def save(conn: Connection, game_id: UUID, tokens: Mapping[int, str]) -> None:
    """Each seat's token from now on, in one statement (a new table's seats all at once); any
    token a seat had before stops working in this commit."""
    if tokens:
        conn.execute(
            f"INSERT INTO seat_tokens (game_id, seat, token_hash) VALUES {_rows(len(tokens))}"
            " ON CONFLICT (game_id, seat) DO UPDATE SET token_hash = EXCLUDED.token_hash,"
            " created_at = now()",
            _hashed_by_seat(game_id, tokens),
        )


def _rows(count: int) -> str:
    return ", ".join(["(%s, %s, %s)"] * count)


def _hashed_by_seat(game_id: UUID, secrets_by_seat: Mapping[int, str]) -> list[Any]:
    """The parameters of _rows: the game, a seat and its secret's hash, for each seat."""
    return [p for seat, s in secrets_by_seat.items() for p in (game_id, seat, token_hash(s))]


def revoke(conn: Connection, game_id: UUID, seat: int) -> None:
    conn.execute("DELETE FROM seat_tokens WHERE game_id = %s AND seat = %s", (game_id, seat))


# The seat a credential's hash acts for at a game `s` (NULL: none): the seat's token, or the
# key of the player who holds the seat. Its two placeholders both take the hash.
_SEAT_OF_TOKEN = (
    "coalesce((SELECT seat FROM seat_tokens t WHERE t.game_id = s.game_id AND t.token_hash = %s),"
    " (SELECT ps.seat FROM players p JOIN player_seats ps ON ps.player_id = p.id"
    "  WHERE p.key_hash = %s AND ps.game_id = s.game_id))"
)


def acts_for(conn: Connection, game_id: UUID, seat: int, credential: str) -> bool:
    """Whether the credential whose hash is `credential` (a seat token, or a player's key)
    still acts for the seat."""
    row = fetch_one(
        conn,
        f"SELECT {_SEAT_OF_TOKEN} FROM streams s WHERE s.game_id = %s",
        (credential, credential, game_id),
    )
    return row is not None and row[0] == seat


def seat_for(conn: Connection, game_id: UUID, token: str) -> int | None:
    """The seat the credential (a seat token, or a player's key) acts for; None if none."""
    hashed = token_hash(token)
    seat: int | None = fetch_value(
        conn,
        f"SELECT {_SEAT_OF_TOKEN} FROM streams s WHERE s.game_id = %s",
        (hashed, hashed, game_id),
    )
    return seat


def version_and_seat(conn: Connection, game_id: UUID, token: str | None) -> tuple[int, int | None]:
    """The game's version and the seat `token` acts for (None: no token, or it acts for no
    seat), in one statement: a read learns both in one round trip (GameNotFound if no game)."""
    if token is None:
        return store.stream_row(conn, game_id, "s.version")[0], None
    columns = f"s.version, {_SEAT_OF_TOKEN}"
    hashed = token_hash(token)
    version, seat = store.stream_row(conn, game_id, columns, column_params=(hashed, hashed))
    return version, seat


def lock_as(conn: Connection, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
    """Locks the stream row (store.lock_stream) and finds the seat `token` acts for, in one
    statement: an action learns who acts in the round trip that takes the game's lock."""
    return head_and_seat_of(store.execute(conn, lock_as_statement(game_id, token)), game_id)


def lock_as_statement(game_id: UUID, token: str) -> Statement:
    """lock_as's statement, whose answer `head_and_seat_of` reads."""
    columns = f"s.version, s.head_hash, s.chain_format, {_SEAT_OF_TOKEN}"
    lock = " FOR NO KEY UPDATE OF s"
    hashed = token_hash(token)
    return store.stream_row_statement(game_id, columns, lock, column_params=(hashed, hashed))


def head_and_seat_of(
    cursor: psycopg.Cursor[TupleRow], game_id: UUID
) -> tuple[StreamHead, int | None]:
    version, head, chain_format, seat = store.row_of(cursor, game_id)
    return StreamHead(version, head, chain_format), seat


def save_invites(conn: Connection, game_id: UUID, invites: Mapping[int, str]) -> None:
    """Each open seat's invite, in one statement."""
    if invites:
        conn.execute(
            f"INSERT INTO seat_invites (game_id, seat, invite_hash) VALUES {_rows(len(invites))}",
            _hashed_by_seat(game_id, invites),
        )


def invite_matches(conn: Connection, game_id: UUID, seat: int, invite: str) -> bool:
    row = fetch_one(
        conn,
        "SELECT invite_hash FROM seat_invites WHERE game_id = %s AND seat = %s",
        (game_id, seat),
    )
    return row is not None and hmac.compare_digest(row[0], token_hash(invite))
