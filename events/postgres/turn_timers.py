"""Turn timers: when each waited-for seat's turn runs out, kept in the transaction that changes
them, so the sweeper finds due ones with one indexed query. A cache of the events: the version
a seat waits since, that event's recorded_at, the table's turn_seconds."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from uuid import UUID

from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_value
from events.records import StoredEvent


def set_timers(
    conn: Connection,
    game_id: UUID,
    waiting: dict[int, int],
    seconds: int,
    new: Sequence[StoredEvent],
) -> dict[int, datetime]:
    """Each waited-for seat's deadline, as the game's rows hold them from now on: a row whose
    seat still waits since the same version keeps its deadline, which is the same moment."""
    conn.execute(
        "DELETE FROM turn_timers WHERE game_id = %s AND NOT (seat = ANY(%s))",
        (game_id, list(waiting)),
    )
    moments = {event.version: event.recorded_at for event in new}
    older = [v for v in waiting.values() if v not in moments]
    if older:
        rows = fetch_all(
            conn,
            "SELECT version, recorded_at FROM events WHERE game_id = %s AND version = ANY(%s)",
            (game_id, older),
        )
        moments |= dict(rows)
    deadlines = {
        seat: moments[since] + timedelta(seconds=seconds) for seat, since in waiting.items()
    }
    for seat, since in waiting.items():
        conn.execute(
            "INSERT INTO turn_timers (game_id, seat, since_version, deadline)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT (game_id, seat) DO UPDATE"
            " SET since_version = EXCLUDED.since_version, deadline = EXCLUDED.deadline"
            " WHERE turn_timers.since_version <> EXCLUDED.since_version",
            (game_id, seat, since, deadlines[seat]),
        )
    return deadlines


def deadline(conn: Connection, game_id: UUID, seat: int, since: int) -> datetime | None:
    at: datetime | None = fetch_value(
        conn,
        "SELECT deadline FROM turn_timers WHERE game_id = %s AND seat = %s AND since_version = %s",
        (game_id, seat, since),
    )
    return at


def due(conn: Connection, limit: int = 200) -> list[tuple[UUID, int, int]]:
    """(game, seat, since) of the turns that have run out, the most overdue first."""
    return fetch_all(
        conn,
        "SELECT game_id, seat, since_version FROM turn_timers WHERE deadline <= now()"
        " ORDER BY deadline LIMIT %s",
        (limit,),
    )


def of_game(conn: Connection, game_id: UUID) -> dict[int, datetime]:
    rows = fetch_all(conn, "SELECT seat, deadline FROM turn_timers WHERE game_id = %s", (game_id,))
    return dict(rows)
