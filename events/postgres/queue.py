"""The matchmaking queue on Postgres: one entry per waiting player, and the table each player's
last queue came to. Times are the database's, so every API and worker process agrees on how
long a player has waited."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from psycopg.rows import dict_row

from events.matchmaking.entries import QueueEntry, QueueMatch
from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_one

_ENTRY = (
    "e.id, e.player_id, e.game_type, e.sizes, e.rated, e.bots_after_seconds, e.queued_at,"
    " extract(epoch FROM clock_timestamp() - e.queued_at)::float8 AS waited"
)
_MATCHED = "player_id, game_id, seat, game_type, sizes, rated, bots_after_seconds, queued_at"
_MATCH = f"{_MATCHED}, matched_at"

# The entry, unless the player waits already, with the player's stored rating at the type (one
# round trip: a join answers with it); joining again forgets the last match.
_JOIN = f"""
WITH e AS (
    INSERT INTO queue_entries (player_id, game_type, sizes, rated, bots_after_seconds)
    VALUES (%(player)s, %(type)s, %(sizes)s, %(rated)s, %(bots_after)s)
    ON CONFLICT (player_id) DO NOTHING
    RETURNING *
), forgotten AS (
    DELETE FROM queue_matches WHERE player_id = %(player)s AND EXISTS (SELECT 1 FROM e)
)
SELECT {_ENTRY}, r.mu, r.sigma, r.games FROM e
LEFT JOIN ratings r ON r.player_id = e.player_id AND r.game_type = e.game_type
"""

Stored = tuple[float, float, int]  # a stored rating: mu, sigma, games


def join(
    conn: Connection,
    player_id: UUID,
    game_type: str,
    sizes: Sequence[int],
    rated: bool,
    bots_after: int | None,
) -> tuple[QueueEntry, Stored | None] | None:
    """The player's new entry and its stored rating at the type (None: it has none); None if
    it waits in a queue already."""
    params = {"player": player_id, "type": game_type, "sizes": list(sizes), "rated": rated,
              "bots_after": bots_after}  # fmt: skip
    row = fetch_one(conn, _JOIN, params, row_factory=dict_row)
    if row is None:
        return None
    stored = None if row["mu"] is None else (row["mu"], row["sigma"], row["games"])
    return _entry(row), stored


def entry(conn: Connection, player_id: UUID) -> QueueEntry | None:
    query = f"SELECT {_ENTRY} FROM queue_entries e WHERE e.player_id = %s"
    row = fetch_one(conn, query, (player_id,), row_factory=dict_row)
    return None if row is None else _entry(row)


def last_match(conn: Connection, player_id: UUID) -> QueueMatch | None:
    query = f"SELECT {_MATCH} FROM queue_matches WHERE player_id = %s"
    row = fetch_one(conn, query, (player_id,), row_factory=dict_row)
    return None if row is None else _match(row)


def leave(conn: Connection, player_id: UUID) -> bool:
    """Whether the player was waiting (and is no longer). An entry a matcher is seating is
    locked: this waits for that matcher's commit, and then finds the entry gone."""
    query = "DELETE FROM queue_entries WHERE player_id = %s RETURNING id"
    return fetch_one(conn, query, (player_id,)) is not None


def waiting(conn: Connection, limit: int) -> list[QueueEntry]:
    """The entries waiting now, longest first, with their players' names."""
    rows = fetch_all(
        conn,
        f"SELECT {_ENTRY}, p.name FROM queue_entries e JOIN players p ON p.id = e.player_id"
        " ORDER BY e.queued_at, e.id LIMIT %s",
        (limit,),
        row_factory=dict_row,
    )
    return [_entry(row) for row in rows]


# Locks the entries no other transaction holds and deletes them: all of a table's entries, or
# the caller gives up (and rolls back). SKIP LOCKED: a matcher never waits for another.
_TAKE = f"""
WITH taken AS (
    DELETE FROM queue_entries WHERE id IN (
        SELECT id FROM queue_entries WHERE id = ANY(%s) FOR UPDATE SKIP LOCKED)
    RETURNING *
)
SELECT {_ENTRY} FROM taken e
"""


def take(conn: Connection, entry_ids: Sequence[int]) -> list[QueueEntry]:
    """The entries among `entry_ids` still waiting and not being seated by another
    transaction, deleted (until this transaction rolls back)."""
    rows = fetch_all(conn, _TAKE, (list(entry_ids),), row_factory=dict_row)
    return [_entry(row) for row in rows]


def record_matches(conn: Connection, game_id: UUID, seats: Mapping[int, QueueEntry]) -> None:
    """Each seated entry's table and seat, in one statement."""
    rows = [
        (e.player_id, game_id, seat, e.game_type, list(e.sizes), e.rated, e.bots_after_seconds,
         e.queued_at)
        for seat, e in seats.items()
    ]  # fmt: skip
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
    conn.execute(
        f"INSERT INTO queue_matches ({_MATCHED}) VALUES {values}"
        " ON CONFLICT (player_id) DO UPDATE SET game_id = excluded.game_id,"
        " seat = excluded.seat, game_type = excluded.game_type, sizes = excluded.sizes,"
        " rated = excluded.rated, bots_after_seconds = excluded.bots_after_seconds,"
        " queued_at = excluded.queued_at, matched_at = now()",
        [value for row in rows for value in row],
    )


def ratings(conn: Connection, game_type: str, player_ids: Sequence[UUID]) -> dict[UUID, Stored]:
    """The stored ratings (mu, sigma, games) of these players at the game type, where kept."""
    rows = fetch_all(
        conn,
        "SELECT player_id, mu, sigma, games FROM ratings"
        " WHERE game_type = %s AND player_id = ANY(%s)",
        (game_type, list(player_ids)),
        row_factory=dict_row,
    )
    return {row["player_id"]: (row["mu"], row["sigma"], row["games"]) for row in rows}


def _entry(row: dict[str, Any]) -> QueueEntry:
    return QueueEntry(
        id=row["id"],
        player_id=row["player_id"],
        game_type=row["game_type"],
        sizes=tuple(row["sizes"]),
        rated=row["rated"],
        bots_after_seconds=row["bots_after_seconds"],
        queued_at=row["queued_at"],
        waited=max(0.0, row["waited"]),
        name=row.get("name", ""),
    )


def _match(row: dict[str, Any]) -> QueueMatch:
    return QueueMatch(**{**row, "sizes": tuple(row["sizes"])})
