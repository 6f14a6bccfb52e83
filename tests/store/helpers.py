"""Small helpers shared by the store tests."""

from __future__ import annotations

from uuid import UUID, uuid4

import psycopg

from events.postgres import store
from events.postgres.store import NewEvent


def new_game(conn: psycopg.Connection, game_type: str = "hearts") -> UUID:
    """A committed, empty stream."""
    game_id = uuid4()
    store.create_stream(conn, game_id, game_type)
    conn.commit()
    return game_id


def events(n: int, type: str = "CardPlayed") -> list[NewEvent]:
    return [NewEvent(type, {"card": f"{i}H", "note": "π ♥"}, seat=i % 4) for i in range(n)]
