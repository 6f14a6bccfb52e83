"""RQ job functions. Arguments are ids only (the game, the version that queued the work, the
work's outbox kind); every job reloads the game and is idempotent: it acts only if the game is
still at that version and still waits for that work (events/commands.py `run_work`)."""

from __future__ import annotations

from uuid import UUID

from events import outbox
from workers import context


def run_work(game_id: str, version: int, kind: str) -> str:
    """A bot's turn or automatic work; "done", or "stale" when the game has moved on."""
    work = outbox.decode(kind)
    return context.cardroom().automation.run_work(UUID(game_id), version, work)
