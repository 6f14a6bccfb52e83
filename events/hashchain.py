"""The hash chain that lets an exported event log prove itself.

hash = sha256(prev_hash || canonical JSON of the event's fields), genesis prev_hash = 64 zeros.
Everything here is pure, so an offline verifier needs only this module.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Protocol
from uuid import UUID

GENESIS = "0" * 64


class ChainedEvent(Protocol):
    game_id: UUID
    version: int
    type: str
    seat: int | None
    data: Mapping[str, Any]
    visible_to: tuple[int, ...] | None
    recorded_at: datetime
    prev_hash: str
    hash: str


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def timestamp(moment: datetime) -> str:
    # Always UTC with microseconds, whatever TimeZone the reading session had.
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def hashed_fields(
    game_id: UUID,
    version: int,
    type: str,
    seat: int | None,
    data: Mapping[str, Any],
    visible_to: Iterable[int] | None,
    recorded_at: datetime,
) -> dict[str, Any]:
    return {
        "game_id": str(game_id),
        "version": version,
        "type": type,
        "seat": seat,
        "data": data,
        "visible_to": None if visible_to is None else list(visible_to),
        "recorded_at": timestamp(recorded_at),
    }


def hash_event(prev_hash: str, fields: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(fields)).encode("utf-8")).hexdigest()


def fields_of(event: ChainedEvent) -> dict[str, Any]:
    return hashed_fields(
        event.game_id,
        event.version,
        event.type,
        event.seat,
        event.data,
        event.visible_to,
        event.recorded_at,
    )


def first_broken_version(events: Iterable[ChainedEvent], prev_hash: str = GENESIS) -> int | None:
    """The version of the first event whose links or hash do not recompute; None if all do."""
    for event in events:
        if event.prev_hash != prev_hash or hash_event(prev_hash, fields_of(event)) != event.hash:
            return event.version
        prev_hash = event.hash
    return None
