"""The worker side run in the test process itself, so a test controls when jobs run: the worker
context pointed at a test database and a queue of its own, RQ in burst mode, and reads of a
game's stored stream."""

from __future__ import annotations

import os
import signal
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from domain.tables import table as tables
from workers import context


def tmp_key_dir() -> Path:
    return Path(tempfile.gettempdir()) / f"cardroom-test-keys-{os.getpid()}"


@contextmanager
def worker_context(
    monkeypatch: pytest.MonkeyPatch, database_url: str, redis_url: str, queue_prefix: str
) -> Iterator:
    """This process's worker context on `database_url` and a fresh queue, cleaned up after.
    Work an earlier test left undone on the database is marked done: the relay keeps only a
    few jobs ahead of the workers, and that work would take those places first."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("RQ_QUEUE", f"{queue_prefix}-{uuid.uuid4().hex[:8]}")
    monkeypatch.setenv("AUDIT_KEY_FILE", str(tmp_key_dir() / "audit-key.pem"))
    context.forget()
    with context.cardroom().pool.connection() as conn:
        conn.execute("UPDATE outbox SET done_at = now() WHERE done_at IS NULL")
    yield context
    for queue in context.queues():
        queue.delete(delete_jobs=True)
    context.cardroom().close()
    context.forget()


def run_jobs(ctx, max_jobs: int | None = None, queues: list | None = None) -> None:
    """Runs every job queued so far (or the first `max_jobs`), here, then returns; from the
    game work's queues, or from `queues`."""
    worker = SimpleWorker(
        queues or ctx.queues(), connection=ctx.redis_connection(), serializer=JSONSerializer
    )
    # RQ installs its own SIGINT and SIGTERM handlers and leaves them: the test process, and
    # any child it forks, would then no longer stop on those signals.
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        worker.work(burst=True, max_jobs=max_jobs)
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


def loaded(ctx, game_id: uuid.UUID) -> tuple[tables.Table, int]:
    """The game's table as stored, and its version."""
    return ctx.cardroom().queries.game(game_id)


def count_of(ctx, game_id: uuid.UUID, event_type: str) -> int:
    """How many events of this type the game has stored."""
    with ctx.cardroom().pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM events WHERE game_id = %s AND type = %s",
            (game_id, event_type),
        ).fetchone()
    return row["n"]
