"""Seed commitments in Postgres: a server seed kept, under an id, until one table takes it or it
expires. The database's clock decides expiry, the same for every process."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from psycopg.rows import tuple_row

from events.postgres.connections import Connection


def save(conn: Connection, commitment_id: UUID, server_seed: str, lasts: timedelta) -> datetime:
    """Keeps the seed until it expires (returned); purges the commitments already expired."""
    cursor = conn.cursor(row_factory=tuple_row)
    cursor.execute("DELETE FROM seed_commitments WHERE expires_at <= now()")
    row = cursor.execute(
        "INSERT INTO seed_commitments (id, server_seed, expires_at) VALUES (%s, %s, now() + %s)"
        " RETURNING expires_at",
        (commitment_id, server_seed, lasts),
    ).fetchone()
    assert row is not None  # an INSERT ... RETURNING gives its row
    expires_at: datetime = row[0]
    return expires_at


def take(conn: Connection, commitment_id: UUID) -> str | None:
    """The seed, if the commitment is unused and unexpired; taking it uses it up. A concurrent
    taker waits on the row, then finds it gone."""
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            "DELETE FROM seed_commitments WHERE id = %s AND expires_at > now()"
            " RETURNING server_seed",
            (commitment_id,),
        )
        .fetchone()
    )
    return None if row is None else row[0]
