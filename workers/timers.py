"""Turn timers fire from Postgres: the timers table (kept by every commit of a timed game) is
polled for turns that have run out, and each is timed out through the automation, which acts
only if the seat is still waited for since that version. So a deadline that passed while no
worker ran fires as soon as one is back, and never twice or after the seat has acted."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from uuid import UUID

from events.operations import bot_tables
from workers import context, periodic

log = logging.getLogger("cardroom.timers")
POLL_SECONDS = 0.2  # the lag a deadline may wait to be noticed, at most


def fire_due_timers(limit: int = 200) -> int:
    """Times out every turn that has run out; how many were timed out now."""
    cardroom = context.cardroom()
    due = cardroom.work.due_timers(limit)
    fired = 0
    for game_id, seat, since in due:
        try:
            now = datetime.now(UTC)
            outcome = cardroom.automation.time_out(game_id, seat, since, now)
            if outcome == "left to bots":
                _count_bot_table(game_id, now)
            fired += outcome != "stale"
        except Exception:
            log.exception("timing out seat %s of game %s failed; retrying", seat, game_id)
    return fired


def _count_bot_table(game_id: UUID, now: datetime) -> None:
    """A young table whose last human was timed out counts against its creator's quota of
    tables of bots alone, as one whose last human left (events/operations/bot_tables.py)."""
    creator, created_at = context.cardroom().queries.origin(game_id)
    if bot_tables.young(created_at, now):
        context.bot_table_counter().count(creator)


def fire_forever(stop: threading.Event, every: float = POLL_SECONDS) -> None:
    """Polls until stopped, firing every turn that has run out at each poll."""

    def sweep() -> None:
        while fire_due_timers() > 0:
            pass

    periodic.repeat(stop, sweep, every, "the timer sweep", log)
