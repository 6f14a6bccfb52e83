"""The queue's rows as the application handles them: a player waiting, and what a player's
last queue came to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID


@dataclass(frozen=True, slots=True)
class QueueEntry:
    id: int
    player_id: UUID
    game_type: str
    sizes: tuple[int, ...]
    rated: bool
    bots_after_seconds: int | None
    queued_at: datetime
    waited: float  # seconds in the queue when read, by the database's clock
    name: str = ""  # the player's name, for its seat


@dataclass(frozen=True, slots=True)
class QueueMatch:
    """The table a player's queue ended at, and what it had asked for."""

    player_id: UUID
    game_id: UUID
    seat: int
    game_type: str
    sizes: tuple[int, ...]
    rated: bool
    bots_after_seconds: int | None
    queued_at: datetime
    matched_at: datetime
