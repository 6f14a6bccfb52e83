"""What a live stream's feed reads when its game moves: the events after a version, and the
credentials that may still watch the game as a seat (the hashes of its seat tokens and of its
seated players' keys), in one statement, so both are of one moment: a token rotated or revoked
before the statement ran is missing, and no event committed after it is there. A stream whose
credential is missing ends before it is sent anything more (api/streams/serving.py,
api/streams/game_stream.py)."""

from __future__ import annotations

from uuid import UUID

from events.postgres.connections import Connection
from events.postgres.db import fetch_all
from events.postgres.store import EVENT_COLUMNS, event_from_row
from events.records import StoredEvent

_COLUMNS = ", ".join(f"e.{column.strip()}" for column in EVENT_COLUMNS.split(","))
# The credentials' row always comes, with the events (if any) beside it.
_READ = (
    f"SELECT c.hashes, {_COLUMNS} FROM"
    " (SELECT coalesce(array_agg(h), '{}') AS hashes FROM"
    "  (SELECT token_hash AS h FROM seat_tokens WHERE game_id = %s"
    "   UNION ALL SELECT p.key_hash FROM player_seats ps JOIN players p ON p.id = ps.player_id"
    "   WHERE ps.game_id = %s) seated) c"
    f" LEFT JOIN LATERAL (SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND version > %s"
    "  ORDER BY version LIMIT %s) e ON true"
)


def events_and_credentials(
    conn: Connection, game_id: UUID, after: int, limit: int
) -> tuple[list[StoredEvent], frozenset[str]]:
    rows = fetch_all(conn, _READ, (game_id, game_id, game_id, after, limit))
    credentials = frozenset(rows[0][0]) if rows else frozenset()
    events = [event_from_row(row[1:]) for row in rows if row[1] is not None]
    return events, credentials
