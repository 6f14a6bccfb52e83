"""Loads a table by folding its events: a per-process cache of (version, state) plus the tail.

The cache is an optimisation only: every load reads the events after the cached version, so a
write from another process is always seen, and the cost of a load does not grow with the game.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from pathlib import Path
from uuid import UUID

import domain
from domain import table as tables
from domain.codec import from_json
from domain.decider import Event
from domain.games import get_game_type
from domain.table_snapshot import table_from_json, table_to_json
from events import snapshots, store
from events.errors import GameNotFound
from events.store import StoredEvent

SNAPSHOT_EVERY = 100  # events between two snapshots of a game
log = logging.getLogger("cardroom.repository")


def _code_version() -> str:
    """A fingerprint of the rules' code: a snapshot folded by other code is never trusted."""
    digest = hashlib.sha256()
    for path in sorted(Path(domain.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


CODE_VERSION = _code_version()


def decode(game_type_id: str, stored: StoredEvent) -> Event:
    cls = tables.event_class(get_game_type(game_type_id), stored.type)
    return from_json(cls, stored.data)


def fold_events(table: tables.Table | None, stored_events: list[StoredEvent]) -> tables.Table:
    for stored in stored_events:
        if table is None:
            created = from_json(tables.TableCreated, stored.data)
            table = tables.create(get_game_type(created.game_type), created)
            continue
        table = tables.evolve(table, decode(table.game_type.id, stored))
    if table is None:
        raise GameNotFound("(no events)")
    return table


def table_from_snapshot(
    game_id: UUID, found: tuple[int, dict] | None
) -> tuple[int, tables.Table | None]:
    """(version, table) from a stored snapshot; (0, None) when there is none this code may use."""
    if found is None or found[1].get("code") != CODE_VERSION:
        return 0, None
    version, data = found
    try:
        table = table_from_json(get_game_type(data["table"]["game_type"]), data["table"])
    except Exception:  # unreadable: fold the events instead, as without a snapshot
        log.warning("ignoring an unreadable snapshot of game %s", game_id, exc_info=True)
        return 0, None
    return version, table


class Repository:
    def __init__(self, capacity: int = 5000) -> None:
        self._cache: OrderedDict[UUID, tuple[int, tables.Table]] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def load(
        self, conn, game_id: UUID, current_version: int | None = None
    ) -> tuple[tables.Table, int]:
        """The table at its latest version. A caller that knows the current version (it holds
        the stream lock) saves the read when the cache is already there."""
        with self._lock:
            cached = self._cache.get(game_id)
        version, table = cached if cached else self._from_snapshot(conn, game_id)
        if table is not None and version == current_version:
            return table, version
        tail = store.read_stream(conn, game_id, after=version)
        if table is None and not tail:
            raise GameNotFound(game_id)
        if tail:
            table = fold_events(table, tail)
            version = tail[-1].version
            self.remember(game_id, version, table)
        return table, version

    def _from_snapshot(self, conn, game_id: UUID) -> tuple[int, tables.Table | None]:
        return table_from_snapshot(game_id, snapshots.load_snapshot(conn, game_id))

    def snapshot_if_due(
        self, conn, game_id: UUID, before: int, after: int, table: tables.Table
    ) -> None:
        """Saves a snapshot each time a game passes a multiple of SNAPSHOT_EVERY events."""
        if (
            table.game_type.state_type is None
            or before // SNAPSHOT_EVERY == after // SNAPSHOT_EVERY
        ):
            return
        data = {"code": CODE_VERSION, "table": table_to_json(table)}
        snapshots.save_snapshot(conn, game_id, after, data)

    def remember(self, game_id: UUID, version: int, table: tables.Table) -> None:
        with self._lock:
            current = self._cache.get(game_id)
            if current is None or current[0] < version:
                self._cache[game_id] = (version, table)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._capacity:
                self._cache.popitem(last=False)
