"""What the players service (events/players.py) returns: a player, a row of its inbox, a
notice. Postgres fills them (events/postgres/players.py); the API renders them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: UUID
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class InboxRow:
    game_id: UUID
    game_type: str
    status: str
    seat: int
    my_turn: bool
    deadline: datetime | None
    version: int
    updated_at: datetime
    last_acted_version: int


@dataclass(frozen=True, slots=True)
class NoticeRow:
    number: int
    kind: str
    game_id: UUID | None
    version: int | None
    seat: int | None
    created_at: datetime
