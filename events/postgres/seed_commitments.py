"""Seed commitments in Postgres: a server seed kept, under an id, until one table takes it or it
expires. The database's clock decides expiry, the same for every process."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from events.postgres.connections import Connection
from events.postgres.db import fetch_value


def save(conn: Connection, commitment_id: UUID, server_seed: str, lasts: timedelta) -> datetime:
    """Keeps the seed until it expires (returned); purges the commitments already expired."""
    conn.execute("DELETE FROM seed_commitments WHERE expires_at <= now()")
    expires_at: datetime = fetch_value(
        conn,
        "INSERT INTO seed_commitments (id, server_seed, expires_at) VALUES (%s, %s, now() + %s)"
        " RETURNING expires_at",
        (commitment_id, server_seed, lasts),
    )
    assert expires_at is not None  # an INSERT ... RETURNING gives its row
    return expires_at


def take(conn: Connection, commitment_id: UUID) -> str | None:
    """The seed, if the commitment is unused and unexpired; taking it uses it up. A concurrent
    taker waits on the row, then finds it gone."""
    seed: str | None = fetch_value(
        conn,
        "DELETE FROM seed_commitments WHERE id = %s AND expires_at > now() RETURNING server_seed",
        (commitment_id,),
    )
    return seed
