"""Reads for audits and exports: a game's stream row, snapshot and events, all as of one moment.

One REPEATABLE READ transaction, so the head, its signature, the snapshot and the events agree
even while the game goes on (an append commits between two reads otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
from psycopg import IsolationLevel

from events.postgres import snapshots, store
from events.postgres.store import StoredEvent


@dataclass(frozen=True)
class StreamRow:
    version: int
    head_hash: str
    chain_format: int
    head_signature: str | None


@dataclass(frozen=True)
class GameLog:
    stream: StreamRow
    events: list[StoredEvent]
    snapshot: tuple[int, dict[str, Any]] | None


@contextmanager
def _consistent(conn: psycopg.Connection) -> Iterator[None]:
    before = conn.isolation_level
    conn.isolation_level = IsolationLevel.REPEATABLE_READ
    try:
        with conn.transaction():
            yield
    finally:
        conn.isolation_level = before


def _stream_row(conn: psycopg.Connection, game_id: UUID) -> StreamRow:
    columns = "version, head_hash, chain_format, head_signature"
    return StreamRow(*store.stream_row(conn, game_id, columns))


def read_game_log(conn: psycopg.Connection, game_id: UUID, with_snapshot: bool = True) -> GameLog:
    """The stream row and every event up to its version (and the snapshot), as of one moment."""
    with _consistent(conn):
        stream = _stream_row(conn, game_id)
        events = store.read_stream(conn, game_id)
        snapshot = snapshots.load_snapshot(conn, game_id) if with_snapshot else None
    return GameLog(stream, events, snapshot)
