"""RQ job functions. Arguments are ids only (the game, the version that queued the work, the
work's outbox kind); every job reloads the game and is idempotent: it acts only if the game is
still at that version and still waits for that work (events/commands.py `run_work`).

Each job is counted (events/operations/metrics.py): its outcome, a failure, and for work done, the
time from the commit that made it due (its outbox row) to now, on the database's clock.
"""

from __future__ import annotations

import logging
import time
from uuid import UUID

from events import outbox
from events.bootstrap import Cardroom
from events.operations import metrics
from workers import context

log = logging.getLogger("cardroom.jobs")


def run_work(game_id: str, version: int, kind: str) -> str:
    """A bot's turn or automatic work ("done", or "stale" when the game has moved on), or a
    rated game's end taken into the ratings ("done", "already" or "unrated")."""
    label = metrics.job_kind(kind)
    work = outbox.decode(kind)
    cardroom = context.cardroom()
    started = time.perf_counter()
    try:
        if isinstance(work, outbox.RateGame):
            outcome = cardroom.ratings.take(UUID(game_id), version)
        else:
            outcome = cardroom.automation.run_work(UUID(game_id), version, work)
    except Exception:
        metrics.JOB_FAILURES.labels(label).inc()
        raise
    finally:
        _count_usage(cardroom, UUID(game_id), time.perf_counter() - started)
    metrics.JOBS.labels(label, outcome).inc()
    if outcome == "done":
        _observe_latency(cardroom, UUID(game_id), version, kind, label)
    return outcome


def _count_usage(cardroom: Cardroom, game_id: UUID, seconds: float) -> None:
    """The job's time goes to its table's creator, and the relay learns a place is free."""
    try:
        cardroom.work.job_finished(game_id, seconds)
    except Exception:  # never fails the job; the relay polls anyway
        log.warning("could not count the job's time", exc_info=True)


def _observe_latency(
    cardroom: Cardroom, game_id: UUID, version: int, kind: str, label: str
) -> None:
    try:
        seconds = cardroom.work.age(game_id, version, kind)
    except Exception:  # a measurement never fails the job it measures
        log.warning("could not read the job's outbox row", exc_info=True)
        return
    if seconds is not None:
        metrics.JOB_SECONDS.labels(label).observe(max(0.0, seconds))
