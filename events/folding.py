"""Stored events folded into a table, and snapshots read back: pure, shared by the store's
repository, the audit and the read side."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any
from uuid import UUID

import domain
from domain.games import get_game_type
from domain.kit.codec import from_json
from domain.kit.decider import Event
from domain.tables import table as tables
from domain.tables.snapshot import table_from_json
from events.errors import GameNotFound
from events.records import StoredEvent

log = logging.getLogger("cardroom.folding")


def _code_version() -> str:
    """A fingerprint of the rules' code: a snapshot folded by other code is never trusted."""
    digest = hashlib.sha256()
    for path in sorted(Path(domain.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


CODE_VERSION = _code_version()


def decode(game_type_id: str, stored: StoredEvent) -> Event:
    cls = tables.event_class(get_game_type(game_type_id), stored.type)
    event: Event = from_json(cls, stored.data)
    return event


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
    game_id: UUID | str, found: tuple[int, dict[str, Any]] | None
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
