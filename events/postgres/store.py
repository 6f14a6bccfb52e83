"""The event store: one stream per game, dense versions, optimistic concurrency, a hash chain.

Every function runs inside the caller's transaction (READ COMMITTED); the caller commits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import TupleRow
from psycopg.types.json import Jsonb

from events.audit.chain import GENESIS
from events.errors import GameExists, GameNotFound, VersionConflict
from events.postgres import named_statements
from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_value
from events.postgres.listing import list_streams, set_stream_status
from events.postgres.named_statements import Statement
from events.records import NewEvent, StoredEvent, StreamHead, StreamInfo, chained_events
from events.wakeups import GAME_CHANNEL, game_wakeup

__all__ = [
    "GENESIS",
    "NewEvent",
    "StreamHead",
    "StoredEvent",
    "GameExists",
    "lock_stream",
    "StreamInfo",
    "GameNotFound",
    "VersionConflict",
    "append",
    "create_stream",
    "list_streams",
    "read_stream",
    "set_stream_status",
    "stream_version",
]


Signer = Callable[[str, int, str], str]  # (game id, version, head) -> signature


def create_stream(
    conn: Connection,
    game_id: UUID,
    game_type: str,
    status: str = "waiting",
    creator: str = "",
) -> StreamHead:
    """A new, empty stream (GameExists if the id is taken), held as lock_stream holds one."""
    statement = create_statement(game_id, game_type, status, creator)
    return created_head(execute(conn, statement), game_id)


def create_statement(
    game_id: UUID, game_type: str, status: str = "waiting", creator: str = ""
) -> Statement:
    """create_stream's statement, whose answer `created_head` reads. No lock is taken: until
    the transaction commits no one else can see the row, and a second insert of its id waits
    on the key. ON CONFLICT keeps the caller's transaction usable when the id is taken.
    `creator` names who created the table, for sharing the workers fairly."""
    query = (
        "INSERT INTO streams (game_id, game_type, status, creator) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (game_id) DO NOTHING RETURNING version, head_hash, chain_format"
    )
    return query, (game_id, game_type, status, creator)


def created_head(cursor: psycopg.Cursor[TupleRow], game_id: UUID) -> StreamHead:
    row = cursor.fetchone()
    if row is None:
        raise GameExists(game_id)
    return StreamHead(*row)


def lock_stream(conn: Connection, game_id: UUID) -> StreamHead:
    """Locks the stream row (writers of one game queue here)."""
    return head_of(execute(conn, lock_statement(game_id)), game_id)


def lock_statement(game_id: UUID) -> Statement:
    """lock_stream's statement, whose answer `head_of` reads."""
    return stream_row_statement(game_id, "version, head_hash, chain_format", " FOR NO KEY UPDATE")


def execute(conn: Connection, statement: Statement) -> psycopg.Cursor[TupleRow]:
    """A cursor on the answer to `statement` (rows as tuples), prepared once per connection."""
    return named_statements.run(conn, "", statement)


def head_of(cursor: psycopg.Cursor[TupleRow], game_id: UUID) -> StreamHead:
    version, head, chain_format = row_of(cursor, game_id)
    return StreamHead(version, head, chain_format)


def stream_row(
    conn: Connection,
    game_id: UUID,
    columns: str,
    lock: str = "",
    column_params: tuple[Any, ...] = (),
) -> tuple[Any, ...]:
    """The named columns of a game's stream row `s` (GameNotFound if there is none);
    `column_params` fill the placeholders the columns hold, if any."""
    statement = stream_row_statement(game_id, columns, lock, column_params)
    return row_of(execute(conn, statement), game_id)


def stream_row_statement(
    game_id: UUID, columns: str, lock: str = "", column_params: tuple[Any, ...] = ()
) -> Statement:
    query = f"SELECT {columns} FROM streams s WHERE s.game_id = %s{lock}"
    return query, (*column_params, game_id)


def row_of(cursor: psycopg.Cursor[TupleRow], game_id: UUID) -> tuple[Any, ...]:
    """The stream row a stream_row_statement found; GameNotFound if it found none."""
    row = cursor.fetchone()
    if row is None:
        raise GameNotFound(game_id)
    return row


def _lock_head(conn: Connection, game_id: UUID, expected: int) -> StreamHead:
    head = lock_stream(conn, game_id)
    if head.version != expected:
        raise VersionConflict(game_id, expected, head.version)
    return head


_ROW = "(%s, %s, %s, %s::smallint, %s, %s::smallint[], %s, %s, %s, %s)"
_APPEND = """
WITH ins AS (
    INSERT INTO events (game_id, version, type, seat, data, visible_to, recorded_at,
                        prev_hash, hash, nonce)
    VALUES {rows} RETURNING global_position, version),
head AS (
    UPDATE streams SET version = %s, head_hash = %s, head_signature = %s,
                       to_act = %s::smallint[], updated_at = now()
    WHERE game_id = %s),
acted AS (
    UPDATE player_seats SET last_acted_version = %s WHERE game_id = %s AND seat = %s),
note AS (SELECT {notify})
SELECT ins.global_position FROM ins, note ORDER BY ins.version"""


def append(
    conn: Connection,
    game_id: UUID,
    expected_version: int,
    events: list[NewEvent],
    *,
    notify: bool = True,
    locked_head: StreamHead | None = None,
    sign: Signer | None = None,
    to_act: Sequence[int] = (),
) -> list[StoredEvent]:
    """Appends after `expected_version` or raises VersionConflict / GameNotFound.

    Two round trips: lock the stream row, then one statement that inserts the events, moves
    the head and queues the NOTIFY (delivered at commit). NOTIFY serializes commits on a
    server-wide lock (about a third of the append rate on 2 vCPUs); notify=False skips it for
    callers whose listeners poll anyway. A caller that already holds the row lock at
    `expected_version` (see lock_stream) passes its `locked_head` to save the first trip.
    `sign` signs the new head, kept in the stream row (without it the row keeps none).
    """
    head = locked_head if locked_head is not None else _lock_head(conn, game_id, expected_version)
    if head.version != expected_version:
        raise VersionConflict(game_id, expected_version, head.version)
    appending = prepare_append(game_id, head, events, notify=notify, sign=sign, to_act=to_act)
    return appended(appending, execute(conn, appending.statement))


@dataclass(frozen=True)
class Appending:
    """An append made ready: its events, chained and unsaved, and the statement that saves
    them, whose answer gives them their global positions (appended)."""

    chained: list[StoredEvent]
    statement: Statement


def prepare_append(
    game_id: UUID,
    head: StreamHead,
    events: list[NewEvent],
    *,
    notify: bool = True,
    sign: Signer | None = None,
    to_act: Sequence[int] = (),
    acted: int | None = None,
) -> Appending:
    """The events after `head` (the caller holds the stream row's lock at it), chained and
    signed, and the statement that appends them. The stream row keeps whose move the game
    waits for now (`to_act`); the seat whose move this is (`acted`), if a player holds it,
    keeps the version as its player's last move."""
    if not events:
        raise ValueError("append needs at least one event")
    chained = chained_events(game_id, head, events, datetime.now(UTC))
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
            e.nonce,
        ]
    last = chained[-1]
    signature = sign(str(game_id), last.version, last.hash) if sign else None
    params += [last.version, last.hash, signature, list(to_act), game_id]
    params += [
        last.version,
        game_id,
        -1 if acted is None else acted,
        game_wakeup(game_id, chained[0].version),
    ]
    notify_sql = f"pg_notify('{GAME_CHANNEL}', %s)" if notify else "%s::text"
    query = _APPEND.format(rows=", ".join([_ROW] * len(chained)), notify=notify_sql)
    return Appending(chained, (query, params))


def appended(appending: Appending, cursor: psycopg.Cursor[TupleRow]) -> list[StoredEvent]:
    """The appended events with their global positions, from the answer to their statement."""
    positions = cursor.fetchall()
    return [_with_position(e, p[0]) for e, p in zip(appending.chained, positions, strict=True)]


def _with_position(event: StoredEvent, position: int) -> StoredEvent:
    return dataclasses.replace(event, global_position=position)


EVENT_COLUMNS = (
    "game_id, version, type, data, seat, visible_to, recorded_at, prev_hash, hash,"
    " global_position, nonce"
)


def event_from_row(row: tuple[Any, ...]) -> StoredEvent:
    visible = None if row[5] is None else tuple(row[5])
    return StoredEvent(row[0], row[1], row[2], row[3], row[4], visible, *row[6:11])


def read_stream(
    conn: Connection, game_id: UUID, after: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    rows = fetch_all(
        conn,
        f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND version > %s"
        " ORDER BY version LIMIT %s",
        (game_id, after, limit),
    )
    return [event_from_row(row) for row in rows]


def notify_game(conn: Connection, game_id: UUID) -> None:
    """NOTIFYs the game's listeners at commit, as an append does, with no new event (its seats'
    credentials changed)."""
    conn.execute("SELECT pg_notify(%s, %s)", (GAME_CHANNEL, str(game_id)))


def stream_version(conn: Connection, game_id: UUID) -> int | None:
    version: int | None = fetch_value(
        conn, "SELECT version FROM streams WHERE game_id = %s", (game_id,)
    )
    return version
