"""The public log's tables (migration 0014): leaves, stored perfect subtrees, signed checkpoints,
and the finished games waiting to be appended. Statements only; events/public_log.py decides."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

from events.audit.merkle import Key
from events.postgres.connections import AnyConnection
from events.postgres.db import fetch_all, fetch_one, fetch_value

# Any constant works; it only has to be the same in every process. Held for the transaction
# of an append, so that two appenders never compute from the same size.
APPEND_LOCK = 0x4C4F_4741_5050  # "LOGAPP"


@dataclass(frozen=True)
class FinishedGame:
    """What a finished game's leaf says: its final head and version, read from its stream."""

    game_id: UUID
    head: str
    game_type: str
    version: int


class StoredSubtrees:
    """The merkle.SubtreeReader of one connection: one statement per read."""

    def __init__(self, conn: AnyConnection) -> None:
        self._conn = conn

    def read(self, keys: Collection[Key]) -> Mapping[Key, bytes]:
        if not keys:
            return {}
        levels, indexes = zip(*keys, strict=True)
        rows = fetch_all(
            self._conn,
            "SELECT s.level, s.index, s.hash FROM log_subtrees s"
            " JOIN unnest(%s::smallint[], %s::bigint[]) AS k (level, index)"
            " ON s.level = k.level AND s.index = k.index",
            (list(levels), list(indexes)),
        )
        found = {(level, index): bytes(hashed) for level, index, hashed in rows}
        missing = set(keys) - found.keys()
        if missing:  # the tree is append-only and complete below its size: a broken store
            raise LookupError(f"the log has no stored subtree {sorted(missing)[:3]}")
        return found


def lock_appends(conn: AnyConnection) -> None:
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (APPEND_LOCK,))


def tree_size(conn: AnyConnection) -> int:
    """Leaves stored (each append commits its checkpoint with it: the latest one's size)."""
    last = fetch_value(conn, "SELECT index FROM log_leaves ORDER BY index DESC LIMIT 1")
    return 0 if last is None else last + 1


def latest_checkpoint(conn: AnyConnection) -> tuple[int, bytes] | None:
    row = fetch_one(conn, "SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1")
    return None if row is None else (row[0], bytes(row[1]))


def save_checkpoint(conn: AnyConnection, size: int, note: bytes) -> None:
    """Keeps the note of a size; one signed already for that size stays (a second signer of
    the empty tree, or of the same size, signs the same bytes with the same key)."""
    conn.execute(
        "INSERT INTO log_checkpoints (size, note) VALUES (%s, %s) ON CONFLICT (size) DO NOTHING",
        (size, note),
    )


def pending_games(conn: AnyConnection, limit: int) -> tuple[list[FinishedGame], list[UUID]]:
    """The oldest finished games queued for the log, with their final heads, and every game
    of the queue's head read (those already in the log included: taken off, never again)."""
    rows = fetch_all(
        conn,
        "SELECT p.game_id, s.head_hash, s.game_type, s.version, l.index IS NOT NULL"
        " FROM log_pending p JOIN streams s USING (game_id)"
        " LEFT JOIN log_leaves l USING (game_id) ORDER BY p.id LIMIT %s",
        (limit,),
    )
    games = [FinishedGame(*row[:4]) for row in rows if not row[4]]
    return games, [row[0] for row in rows]


def take_pending(conn: AnyConnection, game_ids: Sequence[UUID]) -> None:
    conn.execute("DELETE FROM log_pending WHERE game_id = ANY(%s)", (list(game_ids),))


def insert_leaves(conn: AnyConnection, first: int, leaves: Sequence[tuple[UUID, bytes]]) -> None:
    """Leaves at indexes first, first + 1, ...; a game already in the log raises
    UniqueViolation (and the whole append rolls back)."""
    conn.execute(
        "INSERT INTO log_leaves (index, game_id, leaf)"
        " SELECT %s + n - 1, g, l FROM unnest(%s::uuid[], %s::bytea[]) WITH ORDINALITY"
        " AS t (g, l, n)",
        (first, [game_id for game_id, _ in leaves], [leaf for _, leaf in leaves]),
    )


def insert_subtrees(conn: AnyConnection, subtrees: Mapping[Key, bytes]) -> None:
    keys = list(subtrees)
    conn.execute(
        "INSERT INTO log_subtrees (level, index, hash)"
        " SELECT * FROM unnest(%s::smallint[], %s::bigint[], %s::bytea[])",
        ([k[0] for k in keys], [k[1] for k in keys], [subtrees[k] for k in keys]),
    )


def leaf_index(conn: AnyConnection, game_id: UUID) -> int | None:
    index: int | None = fetch_value(
        conn, "SELECT index FROM log_leaves WHERE game_id = %s", (game_id,)
    )
    return index


def leaves(conn: AnyConnection, start: int, end: int) -> list[tuple[int, UUID, bytes]]:
    """(index, game id, leaf bytes) of the leaves in [start, end), in order."""
    rows = fetch_all(
        conn,
        "SELECT index, game_id, leaf FROM log_leaves"
        " WHERE index >= %s AND index < %s ORDER BY index",
        (start, end),
    )
    return [(index, game_id, bytes(leaf)) for index, game_id, leaf in rows]
