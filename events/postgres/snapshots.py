"""Snapshots of a game's folded state, so a cold load folds only the tail."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from events.postgres.connections import Connection
from events.postgres.db import fetch_one


def save_snapshot(conn: Connection, game_id: UUID, version: int, state: dict[str, Any]) -> None:
    # Never replace a newer snapshot with an older one (racing writers).
    conn.execute(
        "INSERT INTO snapshots (game_id, version, state) VALUES (%s, %s, %s)"
        " ON CONFLICT (game_id) DO UPDATE"
        " SET version = EXCLUDED.version, state = EXCLUDED.state, saved_at = now()"
        " WHERE snapshots.version < EXCLUDED.version",
        (game_id, version, Jsonb(state)),
    )


def load_snapshot(conn: Connection, game_id: UUID) -> tuple[int, dict[str, Any]] | None:
    """(version, state) or None."""
    row = fetch_one(conn, "SELECT version, state FROM snapshots WHERE game_id = %s", (game_id,))
    return None if row is None else (row[0], row[1])
