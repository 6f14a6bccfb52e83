"""What the command service returns: domain results, never HTTP shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.kit.decider import Event
from domain.tables import table as tables
from events.pending_append import PendingAppend
from events.records import StoredEvent


@dataclass(frozen=True)
class SeatSecrets:
    """Secrets a command made, each shown once: seat tokens and open seats' invites."""

    tokens: dict[int, str] = field(default_factory=dict)
    invites: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"tokens": self.tokens, "invites": self.invites}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatSecrets:
        return cls(*({int(seat): value for seat, value in data[k].items()} for k in cls.KEYS))

    KEYS = ("tokens", "invites")


@dataclass(frozen=True)
class Committed:
    """What a command appended: the game went from `before` to `version`; `deadlines` are
    when the turn of each seat a timed table waits for runs out, as the commit set them."""

    game_id: UUID
    before: int
    version: int
    table: tables.Table
    appended: PendingAppend
    events: list[Event]
    deadlines: dict[int, datetime] = field(default_factory=dict)
    secrets: SeatSecrets = field(default_factory=SeatSecrets)

    @property
    def stored(self) -> list[StoredEvent]:
        """The appended events as stored: read once the command's unit of work has ended (the
        append may go out with its COMMIT)."""
        return self.appended.stored


@dataclass(frozen=True)
class Replayed:
    """A retried request (same Idempotency-Key, same body): what the first one did."""

    game_id: UUID
    before: int
    version: int
    seat: int | None
    secrets: SeatSecrets
