"""Work handed to the workers fairly between the clients that created the tables.

RQ runs jobs in the order they were enqueued. A relay that enqueued every outbox row as it was
committed would let a client that created many tables (twelve with one scripted human seat, or
five-seat tables of strong bots at 10 s of worker time each) queue hundreds of jobs ahead of a
real player's bot, whose answer would take 10 s instead of well under one. So the relay keeps
only a few jobs in RQ ahead of the workers (`work_ahead`), and picks the next from the outbox
in turns between creators: each creator's next row before any creator's one after it, counting
the jobs it has running; among creators with the same turn, the one that used the least worker
time lately first (seconds decaying by half every HALF_LIFE_SECONDS); then the oldest row. A
player's bot then waits for at most the few jobs ahead of it, whatever another client floods.

A job reports the time it took when it ends (`job_finished`), which also wakes the relay: a
place ahead of the workers is free.
"""

from __future__ import annotations

import math
from uuid import UUID

from psycopg.rows import class_row

from events.outbox import OutboxItem
from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_value
from events.wakeups import OUTBOX_CHANNEL

HALF_LIFE_SECONDS = 60.0
_DECAY = math.log(2) / HALF_LIFE_SECONDS
_COLUMNS = ", ".join(
    f"o.{c}" for c in ("id", "game_id", "version", "kind", "created_at", "enqueued_at", "urgent")
)
# Recent usage as of now: what was recorded, decayed since.
_USAGE_NOW = "u.seconds * exp(-%s * extract(epoch FROM now() - u.updated_at))"
_CLAIM = f"""
WITH pending AS (
    SELECT o.id, s.creator,
           row_number() OVER (PARTITION BY s.creator ORDER BY o.urgent DESC, o.id) AS turn
    FROM outbox o JOIN streams s ON s.game_id = o.game_id
    WHERE o.enqueued_at IS NULL AND o.done_at IS NULL
), running AS (
    SELECT s.creator, count(*) AS jobs
    FROM outbox o JOIN streams s ON s.game_id = o.game_id
    WHERE o.enqueued_at IS NOT NULL AND o.done_at IS NULL
    GROUP BY s.creator
)
SELECT {_COLUMNS} FROM outbox o
JOIN pending p ON p.id = o.id
LEFT JOIN running r ON r.creator = p.creator
LEFT JOIN creator_usage u ON u.creator = p.creator
ORDER BY p.turn + coalesce(r.jobs, 0), coalesce({_USAGE_NOW}, 0), o.id
LIMIT %s
FOR UPDATE OF o SKIP LOCKED
"""


def in_flight(conn: Connection) -> int:
    """Rows handed to RQ and not done yet (through the outbox's partial index)."""
    count: int = fetch_value(
        conn, "SELECT count(*) FROM outbox WHERE enqueued_at IS NOT NULL AND done_at IS NULL"
    )
    return count


def waiting(conn: Connection) -> bool:
    """Whether some row waits to be enqueued."""
    query = "SELECT EXISTS (SELECT 1 FROM outbox WHERE enqueued_at IS NULL AND done_at IS NULL)"
    return bool(fetch_value(conn, query))


def claim_fairly(conn: Connection, limit: int) -> list[OutboxItem]:
    """Up to `limit` rows not yet enqueued, in turns between creators (the module's order),
    locked until the relay's transaction ends: enqueue them, mark_enqueued(), then commit."""
    return fetch_all(conn, _CLAIM, (_DECAY, limit), row_factory=class_row(OutboxItem))


def job_finished(conn: Connection, game_id: UUID, seconds: float) -> None:
    """Adds a job's time to its table's creator's usage, and wakes the relay."""
    conn.execute(
        "INSERT INTO creator_usage (creator, seconds, updated_at)"
        " SELECT creator, %s, now() FROM streams WHERE game_id = %s"
        " ON CONFLICT (creator) DO UPDATE SET updated_at = now(), seconds = EXCLUDED.seconds"
        " + creator_usage.seconds"
        " * exp(-%s * extract(epoch FROM now() - creator_usage.updated_at))",
        (seconds, game_id, _DECAY),
    )
    conn.execute("SELECT pg_notify(%s, '')", (OUTBOX_CHANNEL,))


def usage(conn: Connection, creator: str) -> float:
    """The creator's recent worker seconds, decayed to now (0 if none)."""
    query = f"SELECT {_USAGE_NOW} FROM creator_usage u WHERE u.creator = %s"
    seconds: float | None = fetch_value(conn, query, (_DECAY, creator))
    return 0.0 if seconds is None else seconds


def purge_usage(conn: Connection, older_than_seconds: float) -> int:
    """Forgets creators whose usage was last recorded longer ago than N seconds (decayed to
    nothing by then)."""
    return conn.execute(
        "DELETE FROM creator_usage WHERE updated_at < now() - make_interval(secs => %s)",
        (older_than_seconds,),
    ).rowcount
