"""The event store: one stream per game, dense versions, optimistic concurrency, a hash chain.

Every function runs inside the caller's transaction (READ COMMITTED); the caller commits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

from events.hashchain import GENESIS, hash_event, hashed_fields
from events.listing import StreamInfo, list_streams, set_stream_status
from events.store_errors import StreamExists, StreamNotFound, VersionConflict

__all__ = [
    "GENESIS",
    "NewEvent",
    "StoredEvent",
    "StreamExists",
    "lock_stream",
    "StreamInfo",
    "StreamNotFound",
    "VersionConflict",
    "append",
    "create_stream",
    "hash_event",
    "list_streams",
    "read_stream",
    "set_stream_status",
    "stream_version",
]

NOTIFY_CHANNEL = "game_events"


@dataclass(frozen=True, slots=True)
class NewEvent:
    type: str
    data: dict[str, Any]
    seat: int | None = None
    visible_to: tuple[int, ...] | None = None  # None = public


@dataclass(frozen=True, slots=True)
class StoredEvent:
    game_id: UUID
    version: int
    type: str
    data: dict[str, Any] = field(hash=False)
    seat: int | None
    visible_to: tuple[int, ...] | None
    recorded_at: datetime
    prev_hash: str
    hash: str
    global_position: int


def create_stream(
    conn: psycopg.Connection, game_id: UUID, game_type: str, status: str = "waiting"
) -> None:
    # ON CONFLICT keeps the caller's transaction usable when the id is taken.
    cur = conn.execute(
        "INSERT INTO streams (game_id, game_type, status) VALUES (%s, %s, %s)"
        " ON CONFLICT (game_id) DO NOTHING",
        (game_id, game_type, status),
    )
    if cur.rowcount == 0:
        raise StreamExists(str(game_id))


def lock_stream(conn: psycopg.Connection, game_id: UUID) -> tuple[int, str]:
    """Locks the stream row (writers of one game queue here): (version, head hash)."""
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            "SELECT version, head_hash FROM streams WHERE game_id = %s FOR NO KEY UPDATE",
            (game_id,),
        )
        .fetchone()
    )
    if row is None:
        raise StreamNotFound(str(game_id))
    return row[0], row[1]


def _lock_head(conn: psycopg.Connection, game_id: UUID, expected: int) -> str:
    version, head = lock_stream(conn, game_id)
    if version != expected:
        raise VersionConflict(game_id, expected, version)
    return head


def _chain(
    game_id: UUID, expected: int, head: str, events: list[NewEvent], now: datetime
) -> list[StoredEvent]:
    chained: list[StoredEvent] = []
    for version, event in enumerate(events, start=expected + 1):
        fields = hashed_fields(
            game_id, version, event.type, event.seat, event.data, event.visible_to, now
        )
        digest = hash_event(head, fields)
        chained.append(
            StoredEvent(
                game_id,
                version,
                event.type,
                event.data,
                event.seat,
                event.visible_to,
                now,
                head,
                digest,
                0,
            )
        )
        head = digest
    return chained


_ROW = "(%s, %s, %s, %s::smallint, %s, %s::smallint[], %s, %s, %s)"
_APPEND = """
WITH ins AS (
    INSERT INTO events (game_id, version, type, seat, data, visible_to, recorded_at,
                        prev_hash, hash)
    VALUES {rows} RETURNING global_position, version),
head AS (
    UPDATE streams SET version = %s, head_hash = %s, updated_at = now() WHERE game_id = %s),
note AS (SELECT {notify})
SELECT ins.global_position FROM ins, note ORDER BY ins.version"""


def append(
    conn: psycopg.Connection,
    game_id: UUID,
    expected_version: int,
    events: list[NewEvent],
    *,
    notify: bool = True,
    locked_head: str | None = None,
) -> list[StoredEvent]:
    """Appends after `expected_version` or raises VersionConflict / StreamNotFound.

    Two round trips: lock the stream row, then one statement that inserts the events, moves
    the head and queues the NOTIFY (delivered at commit). NOTIFY serializes commits on a
    server-wide lock (about a third of the append rate on 2 vCPUs); notify=False skips it for
    callers whose listeners poll anyway. A caller that already holds the row lock at
    `expected_version` (see lock_stream) passes its `locked_head` to save the first trip.
    """
    if not events:
        raise ValueError("append needs at least one event")
    head = locked_head if locked_head is not None else _lock_head(conn, game_id, expected_version)
    chained = _chain(game_id, expected_version, head, events, datetime.now(UTC))
    params: list[Any] = []
    for e in chained:
        visible = None if e.visible_to is None else list(e.visible_to)
        params += [
            game_id,
            e.version,
            e.type,
            e.seat,
            Jsonb(e.data),
            visible,
            e.recorded_at,
            e.prev_hash,
            e.hash,
        ]
    last = chained[-1]
    params += [last.version, last.hash, game_id, str(game_id)]
    notify_sql = f"pg_notify('{NOTIFY_CHANNEL}', %s)" if notify else "%s::text"
    query = _APPEND.format(rows=", ".join([_ROW] * len(chained)), notify=notify_sql)
    positions = conn.cursor(row_factory=tuple_row).execute(query, params).fetchall()
    return [_with_position(e, p[0]) for e, p in zip(chained, positions, strict=True)]


def _with_position(event: StoredEvent, position: int) -> StoredEvent:
    return StoredEvent(
        event.game_id,
        event.version,
        event.type,
        event.data,
        event.seat,
        event.visible_to,
        event.recorded_at,
        event.prev_hash,
        event.hash,
        position,
    )


EVENT_COLUMNS = (
    "game_id, version, type, data, seat, visible_to, recorded_at, prev_hash, hash, global_position"
)


def event_from_row(row: tuple) -> StoredEvent:
    visible = None if row[5] is None else tuple(row[5])
    return StoredEvent(row[0], row[1], row[2], row[3], row[4], visible, *row[6:10])


def read_stream(
    conn: psycopg.Connection, game_id: UUID, after: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    rows = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND version > %s"
            " ORDER BY version LIMIT %s",
            (game_id, after, limit),
        )
        .fetchall()
    )
    return [event_from_row(row) for row in rows]


def stream_version(conn: psycopg.Connection, game_id: UUID) -> int | None:
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute("SELECT version FROM streams WHERE game_id = %s", (game_id,))
        .fetchone()
    )
    return None if row is None else row[0]
