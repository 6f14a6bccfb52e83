"""The transactional outbox: work due after a commit, written in the same transaction as the
events, then handed to RQ by the relay with job id game_version_kind (deduplicated)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg.rows import class_row

from events.outbox import OutboxItem, Work, encode
from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_one, fetch_value
from events.wakeups import OUTBOX_CHANNEL

_COLUMNS = "id, game_id, version, kind, created_at, enqueued_at, urgent"


def add(conn: Connection, game_id: UUID, version: int, work: Work, urgent: bool = False) -> bool:
    """Queues work for after this transaction commits; False if it was already queued."""
    return _changes_one(
        conn,
        "INSERT INTO outbox (game_id, version, kind, urgent) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (game_id, version, kind) DO NOTHING",
        (game_id, version, encode(work), urgent),
    )


def _changes_one(conn: Connection, statement: str, params: tuple[Any, ...]) -> bool:
    return conn.execute(statement, params).rowcount == 1


def notify_relay(conn: Connection) -> None:
    """Wakes the relay at commit (a hint: it polls anyway)."""
    conn.execute("SELECT pg_notify(%s, '')", (OUTBOX_CHANNEL,))


def mark_enqueued(conn: Connection, ids: list[int]) -> None:
    conn.execute("UPDATE outbox SET enqueued_at = now() WHERE id = ANY(%s)", (ids,))


def mark_done(conn: Connection, game_id: UUID, version: int, work: Work) -> bool:
    return _changes_one(
        conn,
        "UPDATE outbox SET done_at = now()"
        " WHERE game_id = %s AND version = %s AND kind = %s AND done_at IS NULL",
        (game_id, version, encode(work)),
    )


def stale(conn: Connection, older_than_seconds: float, limit: int = 100) -> list[OutboxItem]:
    """Enqueued but not done for longer than N seconds (Redis lost it, a worker died).
    Locked like a claim (fair_work.claim_fairly): the sweeper re-enqueues them and calls
    mark_enqueued()."""
    return fetch_all(
        conn,
        f"SELECT {_COLUMNS} FROM outbox WHERE done_at IS NULL AND enqueued_at IS NOT NULL"
        " AND enqueued_at < now() - make_interval(secs => %s)"
        " ORDER BY enqueued_at LIMIT %s FOR UPDATE SKIP LOCKED",
        (older_than_seconds, limit),
        row_factory=class_row(OutboxItem),
    )


def purge_done(conn: Connection, older_than_seconds: float) -> int:
    """Deletes work finished longer ago than N seconds: the events are the record, not this."""
    cur = conn.execute(
        "DELETE FROM outbox WHERE done_at < now() - make_interval(secs => %s)",
        (older_than_seconds,),
    )
    return cur.rowcount


def lag(conn: Connection) -> tuple[float, int]:
    """(Seconds since the oldest unfinished row was written, 0 for none; unfinished rows),
    read through the two partial indexes (pending, and enqueued but not done)."""
    row = fetch_one(
        conn,
        "SELECT coalesce(extract(epoch FROM now() - least(p.oldest, e.oldest)), 0)::float8,"
        " p.n + e.n FROM"
        " (SELECT min(created_at) AS oldest, count(*) AS n FROM outbox"
        "  WHERE enqueued_at IS NULL AND done_at IS NULL) p,"
        " (SELECT min(created_at) AS oldest, count(*) AS n FROM outbox"
        "  WHERE enqueued_at IS NOT NULL AND done_at IS NULL) e",
    )
    assert row is not None
    return row[0], row[1]


def age(conn: Connection, game_id: UUID, version: int, kind: str) -> float | None:
    """Seconds since the row was written, by the database's clock; None if there is none."""
    seconds: float | None = fetch_value(
        conn,
        "SELECT extract(epoch FROM clock_timestamp() - created_at)::float8 FROM outbox"
        " WHERE game_id = %s AND version = %s AND kind = %s",
        (game_id, version, kind),
    )
    return seconds
