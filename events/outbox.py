"""Work due after a commit that the workers do: a bot's turn, automatic work such as round
scoring, or taking a rated game's end into the ratings. Typed here; its text form (the
outbox's `kind` column, part of RQ job ids) is written and read here only. An outbox row
(`OutboxItem`) is what the relay hands to RQ; the table itself: events/postgres/outbox.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.tables.policy import AutomaticDue, BotTurnsDue, Due

BOT_PREFIX = "bot-"  # RQ job ids allow only letters, digits, '_' and '-'
RATINGS = "ratings"


@dataclass(frozen=True, slots=True)
class BotTurn:
    seat: int


@dataclass(frozen=True, slots=True)
class AutomaticWork:
    kind: str  # the game's name for it, e.g. "scoring"


@dataclass(frozen=True, slots=True)
class RateGame:
    """A rated game ended: its raters' ratings take it (events/rating_updates.py)."""


Work = BotTurn | AutomaticWork | RateGame


def encode(work: Work) -> str:
    if isinstance(work, BotTurn):
        return f"{BOT_PREFIX}{work.seat}"
    if isinstance(work, RateGame):
        return RATINGS
    taken = work.kind.startswith(BOT_PREFIX) or work.kind == RATINGS
    if taken or not work.kind.replace("_", "").isalnum():
        raise ValueError(f"automatic work cannot be called {work.kind!r}")
    return work.kind


def decode(kind: str) -> Work:
    if kind.startswith(BOT_PREFIX):
        return BotTurn(int(kind.removeprefix(BOT_PREFIX)))
    if kind == RATINGS:
        return RateGame()
    return AutomaticWork(kind)


def work_due(next_up: Due) -> list[Work]:
    """The work a table waits for that the workers do (a deal is made at once, never queued)."""
    if isinstance(next_up, AutomaticDue):
        return [AutomaticWork(next_up.kind)]
    if isinstance(next_up, BotTurnsDue):
        return [BotTurn(seat) for seat in next_up.seats]
    return []


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """A row of the outbox: work due after the commit of `version`."""

    id: int
    game_id: UUID
    version: int
    kind: str
    created_at: datetime
    enqueued_at: datetime | None
    urgent: bool  # a human is waiting for it

    @property
    def job_id(self) -> str:
        return f"{self.game_id}_{self.version}_{self.kind}"

    @property
    def work(self) -> Work:
        return decode(self.kind)
