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

from psycopg import IsolationLevel
from psycopg.rows import tuple_row

from events.postgres import snapshots, store
from events.postgres.connections import AnyConnection, Connection
from events.postgres.db import fetch_value
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
def _consistent(conn: Connection) -> Iterator[None]:
    before = conn.isolation_level
    conn.isolation_level = IsolationLevel.REPEATABLE_READ
    try:
        with conn.transaction():
            yield
    finally:
        conn.isolation_level = before


def _stream_row(conn: Connection, game_id: UUID) -> StreamRow:
    columns = "version, head_hash, chain_format, head_signature"
    return StreamRow(*store.stream_row(conn, game_id, columns))


def read_game_log(conn: Connection, game_id: UUID, with_snapshot: bool = True) -> GameLog:
    """The stream row and every event up to its version (and the snapshot), as of one moment."""
    with _consistent(conn):
        stream = _stream_row(conn, game_id)
        events = store.read_stream(conn, game_id)
        snapshot = snapshots.load_snapshot(conn, game_id) if with_snapshot else None
    return GameLog(stream, events, snapshot)


@dataclass(frozen=True)
class ChainedGame:
    """What the integrity check needs of one game: its stream row and every event."""

    game_id: UUID
    stream: StreamRow
    events: list[StoredEvent]


def count_games(conn: AnyConnection) -> int:
    count: int = fetch_value(conn, "SELECT count(*) FROM streams")
    return count


def chained_games(conn: AnyConnection, batch: int = 200) -> Iterator[ChainedGame]:
    """Every game with its events, in game id order, `batch` games per REPEATABLE READ
    transaction (one snapshot per batch: a game's row and events agree, and no transaction
    stays open for the whole walk)."""
    after = UUID(int=0)
    while True:
        with _consistent(conn):
            cur = conn.cursor(row_factory=tuple_row)
            rows = cur.execute(
                "SELECT game_id, version, head_hash, chain_format, head_signature FROM streams"
                " WHERE game_id > %s ORDER BY game_id LIMIT %s",
                (after, batch),
            ).fetchall()
            if not rows:
                return
            events: dict[UUID, list[StoredEvent]] = {row[0]: [] for row in rows}
            for row in cur.execute(
                f"SELECT {store.EVENT_COLUMNS} FROM events WHERE game_id = ANY(%s)"
                " ORDER BY game_id, version",
                ([row[0] for row in rows],),
            ):
                events[row[0]].append(store.event_from_row(row))
        for game_id, *stream in rows:
            yield ChainedGame(game_id, StreamRow(*stream), events[game_id])
        after = rows[-1][0]
