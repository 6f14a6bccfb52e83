"""The outbox relay: turns committed outbox rows into RQ jobs, woken by NOTIFY, polling as a
fallback, keeping only a few jobs ahead of the workers and picking them fairly between the
clients that created the tables (events/work_queue.py); and the sweeper, which
re-enqueues work that was enqueued but never finished (Redis restarted, a worker killed)."""

from __future__ import annotations

import logging
import threading
import time

from events.operations import heartbeats
from events.outbox import OutboxItem
from events.wakeups import OUTBOX_CHANNEL, Listener, ListenerLost
from workers import context
from workers.jobs import run_work

log = logging.getLogger("cardroom.relay")
BATCH = 100
PURGE_EVERY_SWEEPS = 300  # about every ten minutes
RECONNECT_FIRST, RECONNECT_MAX = 0.5, 10.0  # seconds before opening the LISTEN again
# While work waits for a place ahead of the workers, look again this often (a finished job
# wakes the relay; this covers a wake-up lost).
BACKLOG_POLL_SECONDS = 0.1
WORKERS_READ_EVERY = 5.0  # seconds between two reads of how many workers beat


def enqueue(row: OutboxItem) -> None:
    context.queue(row.urgent).enqueue(
        run_work,
        str(row.game_id),
        row.version,
        row.kind,
        job_id=row.job_id,
        result_ttl=300,
        failure_ttl=86400,
    )


def relay_pending() -> int:
    """Hands the workers as many rows as they have places ahead of them, fairly between
    creators; returns how many."""
    return context.cardroom().work.hand_out(work_ahead(), BATCH, enqueue)


_workers_seen = (0.0, 1)  # (when read, workers beating then)


def work_ahead() -> int:
    """Jobs RQ may hold at once: `work_ahead` for each worker process beating (one at least),
    read from their heartbeats every few seconds."""
    global _workers_seen
    now = time.monotonic()
    read_at, alive = _workers_seen
    if now - read_at >= WORKERS_READ_EVERY:
        try:
            settings = context.settings()
            beats = heartbeats.read(context.redis_connection(), settings.queue_name)
            alive = max(1, beats.alive)
        except Exception:  # Redis is down: enqueueing fails anyway
            alive = max(1, alive)
        _workers_seen = (now, alive)
    return context.settings().work_ahead * alive


def sweep_stale(older_than_seconds: float) -> int:
    def again(row: OutboxItem) -> None:
        log.warning("re-enqueueing stuck work %s", row.job_id)
        enqueue(row)

    return context.cardroom().work.hand_out_stale(older_than_seconds, again)


def relay_forever(stop: threading.Event, poll_seconds: float = 1.0) -> None:
    """Relays until stopped. Losing the LISTEN connection (Postgres restarted) only costs the
    wake-ups: it is opened again, after 0.5 s doubling to 10 s while it keeps failing, and
    every pass relays whatever is pending anyway."""
    delay = RECONNECT_FIRST
    while not stop.is_set():
        try:
            with context.cardroom().listen(OUTBOX_CHANNEL) as listener:
                if delay > RECONNECT_FIRST:
                    log.warning("listening for %s again", OUTBOX_CHANNEL)
                delay = RECONNECT_FIRST
                _relay_while_listening(listener, stop, poll_seconds)
        except ListenerLost as error:
            log.warning(
                "the relay's LISTEN connection failed (%s); reconnecting in %.1f s",
                error,
                delay,
            )
            _relay_once()  # rows may be pending (polling without wake-ups meanwhile)
            stop.wait(delay)
            delay = min(RECONNECT_MAX, delay * 2)


def _relay_while_listening(listener: Listener, stop: threading.Event, poll_seconds: float) -> None:
    while not stop.is_set():
        waiting = _relay_once()
        wait = BACKLOG_POLL_SECONDS if waiting else poll_seconds
        for _ in listener.wakeups(timeout=wait, stop_after=1):
            pass


def _relay_once() -> bool:
    """Relays what the workers have room for; whether work is left waiting for room."""
    try:
        while relay_pending() == BATCH:
            pass
        return _backlog()
    except Exception:
        log.exception("relay failed; retrying")
        return False


def _backlog() -> bool:
    return context.cardroom().work.waiting()


def purge_old_records() -> tuple[int, int]:
    """Idempotency keys past their 24 hours and finished outbox rows past an hour."""
    return context.cardroom().work.purge(done_older_than_seconds=3600)


def sweep_forever(stop: threading.Event, every_seconds: float = 2.0) -> None:
    sweeps = 0
    while not stop.wait(every_seconds):
        try:
            sweep_stale(context.settings().sweep_after_seconds)
            if sweeps % PURGE_EVERY_SWEEPS == 0:
                purge_old_records()
        except Exception:
            log.exception("sweep failed; retrying")
        sweeps += 1
