"""The games list: a status per stream and newest-first keyset pagination.

Re-exported by events.postgres.store; kept apart because it is read-model work, not the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import sql
from psycopg.rows import class_row

from events.errors import GameNotFound
from events.postgres.connections import Connection
from events.postgres.db import fetch_all
from events.records import StreamInfo

STATUSES = ("waiting", "active", "finished")


def set_stream_status(conn: Connection, game_id: UUID, status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}")
    cur = conn.execute(
        "UPDATE streams SET status = %s, updated_at = now() WHERE game_id = %s",
        (status, game_id),
    )
    if cur.rowcount == 0:
        raise GameNotFound(game_id)


def list_streams(
    conn: Connection,
    status: str | None = None,
    game_type: str | None = None,
    before: tuple[datetime, UUID] | None = None,
    limit: int = 50,
) -> list[StreamInfo]:
    """Newest first. Filters are composed, not `x IS NULL OR`, so the planner uses the indexes."""
    where: list[sql.Composable] = [sql.SQL("TRUE")]
    params: list[Any] = []
    if status is not None:
        where.append(sql.SQL("status = %s"))
        params.append(status)
    if game_type is not None:
        where.append(sql.SQL("game_type = %s"))
        params.append(game_type)
    if before is not None:
        where.append(sql.SQL("(created_at, game_id) < (%s, %s)"))
        params += list(before)
    query = sql.SQL(
        "SELECT game_id, game_type, status, version, created_at, updated_at FROM streams"
        " WHERE {} ORDER BY created_at DESC, game_id DESC LIMIT %s"
    ).format(sql.SQL(" AND ").join(where))
    return fetch_all(conn, query, [*params, limit], row_factory=class_row(StreamInfo))
