"""Loads a table by folding its events: a per-process cache of (version, state) plus the tail.

The cache is an optimisation only: every load reads the events after the cached version, so a
write from another process is always seen, and the cost of a load does not grow with the game.

It is bounded by count, in two parts: games in play (`capacity`) and finished games
(`finished_capacity`), each dropping its least recently used first. A finished game is read a
few times just after its end, then seldom; kept with the others, the tables of a long-running
process would be mostly games long over (a table is some 10-20 KiB), so its memory would grow
with its history until the cache is full, rather than with the games in play. 32 finished
games cover the reads just after their ends (a busy server ends some 50 games a minute over
two processes); a bound of hundreds takes a process minutes to fill, which looks like memory
growing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from uuid import UUID

from domain.tables import table as tables
from domain.tables.snapshot import table_to_json
from events.errors import GameNotFound
from events.folding import CODE_VERSION, fold_events, table_from_snapshot
from events.postgres import snapshots, store
from events.postgres.connections import Connection
from events.records import StoredEvent

SNAPSHOT_EVERY = 100  # events between two snapshots of a game


Cached = OrderedDict[UUID, tuple[int, tables.Table]]


class Repository:
    def __init__(self, capacity: int = 5000, finished_capacity: int = 32) -> None:
        self._playing: Cached = OrderedDict()
        self._finished: Cached = OrderedDict()
        self._capacity = capacity
        self._finished_capacity = finished_capacity
        self._lock = threading.Lock()

    def load(
        self, conn: Connection, game_id: UUID, current_version: int | None = None
    ) -> tuple[tables.Table, int]:
        """The table at its latest version. A caller that knows the current version (it holds
        the stream lock) saves the read when the cache is already there."""
        cached = self._cached(game_id)
        version, table = cached if cached else self._from_snapshot(conn, game_id)
        if table is not None and version == current_version:
            return table, version
        tail = store.read_stream(conn, game_id, after=version)
        if tail:
            table = fold_events(table, tail)
            version = tail[-1].version
            self.remember(game_id, version, table)
        if table is None:
            raise GameNotFound(game_id)
        return table, version

    def fold_read(
        self, game_id: UUID, after: int, stored: list[StoredEvent]
    ) -> tuple[tables.Table, int] | None:
        """The table at the end of `stored`, the game's events after `after` up to its head as
        just read, from the cached table if that is no older than `after` (the events it lacks
        are in `stored`): the read of the tail that `load` would make again is saved. None when
        the cache cannot tell (nothing cached, older, or newer than what was read)."""
        cached = self._cached(game_id)
        if cached is None:
            return None
        version, table = cached
        end = stored[-1].version if stored else after
        if not after <= version <= end:
            return None
        tail = [event for event in stored if event.version > version]
        if tail:
            table = fold_events(table, tail)
            self.remember(game_id, end, table)
        return table, end

    def _cached(self, game_id: UUID) -> tuple[int, tables.Table] | None:
        with self._lock:
            return self._cached_unlocked(game_id)

    def _cached_unlocked(self, game_id: UUID) -> tuple[int, tables.Table] | None:
        return self._playing.get(game_id) or self._finished.get(game_id)

    def _from_snapshot(self, conn: Connection, game_id: UUID) -> tuple[int, tables.Table | None]:
        return table_from_snapshot(game_id, snapshots.load_snapshot(conn, game_id))

    def snapshot_if_due(
        self, conn: Connection, game_id: UUID, before: int, after: int, table: tables.Table
    ) -> None:
        """Saves a snapshot each time a game passes a multiple of SNAPSHOT_EVERY events."""
        if not self.snapshot_due(before, after, table):
            return
        data = {"code": CODE_VERSION, "table": table_to_json(table)}
        snapshots.save_snapshot(conn, game_id, after, data)

    @staticmethod
    def snapshot_due(before: int, after: int, table: tables.Table) -> bool:
        return (
            table.game_type.state_type is not None
            and before // SNAPSHOT_EVERY != after // SNAPSHOT_EVERY
        )

    def __len__(self) -> int:
        """Tables cached now (never more than the two capacities together)."""
        with self._lock:
            return len(self._playing) + len(self._finished)

    def __contains__(self, game_id: object) -> bool:
        with self._lock:
            return game_id in self._playing or game_id in self._finished

    def remember(self, game_id: UUID, version: int, table: tables.Table) -> None:
        with self._lock:
            current = self._cached_unlocked(game_id)
            if current is not None and current[0] >= version:
                version, table = current  # a newer state is cached already: keep it
            self._playing.pop(game_id, None)
            self._finished.pop(game_id, None)
            finished = table.status == "finished"
            part = self._finished if finished else self._playing
            part[game_id] = (version, table)
            while len(part) > (self._finished_capacity if finished else self._capacity):
                part.popitem(last=False)
