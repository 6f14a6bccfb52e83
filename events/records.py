"""The events of a stream as the application handles them: new ones to append, stored ones
read back, the head a writer locks, and how new events are chained to it; and a stream as the
games list shows it."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

from domain.kit.codec import to_json
from domain.kit.decider import Event
from events.audit.chain import event_hash, timestamp


@dataclass(frozen=True, slots=True)
class NewEvent:
    type: str
    data: dict[str, Any]
    seat: int | None = None
    visible_to: tuple[int, ...] | None = None  # None = public


@dataclass(frozen=True, slots=True)
class StoredEvent:
    game_id: UUID
    version: int
    type: str
    data: dict[str, Any] = field(hash=False)
    seat: int | None
    visible_to: tuple[int, ...] | None
    recorded_at: datetime
    prev_hash: str
    hash: str
    global_position: int
    nonce: str | None = None  # 128 random bits on every non-public event (events/audit/chain.py)

    def record(self) -> dict[str, Any]:
        """The fields the chain covers, as an export spells them."""
        return {
            "version": self.version,
            "type": self.type,
            "seat": self.seat,
            "visible_to": None if self.visible_to is None else list(self.visible_to),
            "recorded_at": timestamp(self.recorded_at),
            "data": self.data,
            "nonce": self.nonce,
        }


def new_events(events: Sequence[Event]) -> list[NewEvent]:
    """Domain events as the store appends them: name, data, the seat that caused them, who may
    see them."""
    return [NewEvent(type(e).__name__, to_json(e), e.actor(), e.visible_to()) for e in events]


class StreamHead(NamedTuple):
    version: int
    hash: str
    chain_format: int


def chained_events(
    game_id: UUID, head: StreamHead, events: list[NewEvent], now: datetime
) -> list[StoredEvent]:
    """The events after `head`, each hashed (format of the stream) with the one before; every
    event that is not public gets a fresh 128-bit nonce (events/audit/chain.py)."""
    chained: list[StoredEvent] = []
    prev = head.hash
    for version, event in enumerate(events, start=head.version + 1):
        private = event.visible_to is not None and head.chain_format >= 2
        stored = StoredEvent(
            game_id,
            version,
            event.type,
            event.data,
            event.seat,
            event.visible_to,
            now,
            prev,
            "",
            0,
            secrets.token_hex(16) if private else None,
        )
        digest = event_hash(head.chain_format, str(game_id), prev, stored.record())
        chained.append(dataclasses.replace(stored, hash=digest))
        prev = digest
    return chained


@dataclass(frozen=True, slots=True)
class StreamInfo:
    game_id: UUID
    game_type: str
    status: str
    version: int
    created_at: datetime
    updated_at: datetime

    @property
    def cursor(self) -> tuple[datetime, UUID]:
        """Pass as `before` to get the next (older) page."""
        return (self.created_at, self.game_id)
