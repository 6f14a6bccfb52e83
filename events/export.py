"""A game's log as NDJSON that proves itself offline (`python -m events.verify FILE`).

Every line is canonical JSON (sorted keys, no spaces, UTF-8) followed by "\\n", so each value
has exactly one spelling and the verifier can refuse any other. The first line is the header:

    {"kind": "header", "format": "cardroom-export/1", "complete": true, "game_id", "type",
     "status", "version", "chain_head", "seats", "options", "result"}

then one line per stored event, oldest first, holding every field the hash chain covers:

    {"kind": "event", "version", "type", "seat", "visible_to", "recorded_at", "data",
     "prev_hash", "hash"}

hash = sha256(prev_hash || canonical JSON of {game_id, version, type, seat, data, visible_to,
recorded_at}) (events/hashchain.py), with `game_id` from the header and `recorded_at` exactly
as written. Before the game is over an export is only the caller's view: "complete": false,
a "viewer" seat, events as GET /games/{id}/events shows them and no hashes (a hash next to a
redacted event would let anyone test guesses of the hidden cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

from domain.codec import canonical_json, to_json
from domain.table import Table
from domain.table_view import view_table
from events.hashchain import GENESIS, ChainedEvent, timestamp

FORMAT = "cardroom-export/1"
MEDIA_TYPE = "application/x-ndjson"
HEADER_KEYS = frozenset(
    {"kind", "format", "complete", "game_id", "type", "status", "version", "chain_head"}
    | {"seats", "options", "result"}
)
EVENT_KEYS = frozenset(
    {"kind", "version", "type", "seat", "visible_to", "recorded_at", "data", "prev_hash", "hash"}
)


def line(value: dict[str, Any]) -> str:
    return canonical_json(value) + "\n"


def header(game_id: UUID, table: Table, version: int, chain_head: str) -> dict[str, Any]:
    """What the verifier derives again from the events and compares, key by key."""
    return {
        "kind": "header",
        "format": FORMAT,
        "complete": True,
        "game_id": str(game_id),
        "type": table.game_type.id,
        "status": table.status,
        "version": version,
        "chain_head": chain_head,
        "seats": seats_of(table),
        "options": to_json(dict(table.options)),
        "result": result_of(table),
    }


def seats_of(table: Table) -> list[dict[str, Any]]:
    return to_json(table.seats)


def result_of(table: Table) -> dict[str, Any] | None:
    return view_table(table, None).get("result")


def event_record(event: ChainedEvent) -> dict[str, Any]:
    return {
        "kind": "event",
        "version": event.version,
        "type": event.type,
        "seat": event.seat,
        "visible_to": None if event.visible_to is None else list(event.visible_to),
        "recorded_at": timestamp(event.recorded_at),
        "data": event.data,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }


def full_export(game_id: UUID, table: Table, events: list[ChainedEvent]) -> Iterator[str]:
    head = events[-1].hash if events else GENESIS
    version = events[-1].version if events else 0
    yield line(header(game_id, table, version, head))
    for event in events:
        yield line(event_record(event))


def viewer_export(
    game_id: UUID, table: Table, version: int, viewer: int | None, events: Iterable[dict]
) -> Iterator[str]:
    """An unfinished game: the caller's view only (events already rendered for the viewer)."""
    yield line(
        {
            "kind": "header",
            "format": FORMAT,
            "complete": False,
            "game_id": str(game_id),
            "type": table.game_type.id,
            "status": table.status,
            "version": version,
            "viewer": viewer,
        }
    )
    for event in events:
        yield line({"kind": "event", **event})
