"""The app and its worker process as the tests start them, written once for every conftest that
serves the app on a real database and Redis (tests/api, tests/observability, and the ones that
borrow theirs): its settings, the app itself, a test client, a real `python -m workers`."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api import create_app
from embedded.procs import die_with_parent
from events.operations.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def app_settings(database_url: str, redis_url: str, keys: Path, **overrides: Any) -> Settings:
    """Settings on these servers, with the audit key in `keys`, a queue no other test uses, fixed
    decks allowed (tests deal them), a small pool and warnings only in the log; `overrides`
    change or add the rest."""
    values = {
        "database_url": database_url,
        "redis_url": redis_url,
        "queue_name": f"cardroom-test-{uuid.uuid4().hex[:8]}",
        "db_pool_size": 4,
        "audit_key_file": str(keys / "audit-key.pem"),
        "allow_fixed_deck": True,
        "log_level": "WARNING",
        **overrides,
    }
    return Settings(**values)


def running_app(settings: Settings) -> Iterator[Flask]:
    """The body of an `app` fixture (`yield from running_app(settings)`), at whatever scope the
    conftest gives it: the app in testing mode, its connection pool closed afterwards."""
    app = create_app(settings)
    app.config["TESTING"] = True
    yield app
    app.extensions["cardroom"].pool.close()


@pytest.fixture()
def client(app: Flask):
    """A test client of the conftest's `app` (imported into each conftest that serves one)."""
    return app.test_client()


def worker_environment(settings: Settings, **overrides: str) -> dict[str, str]:
    """The environment a worker (or another process of the service) reads these settings from."""
    return {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "RQ_QUEUE": settings.queue_name,
        "SWEEP_AFTER_SECONDS": str(settings.sweep_after_seconds),
        "LOG_LEVEL": "WARNING",
        "AUDIT_KEY_FILE": settings.audit_key_file,
        "WEBHOOKS_ALLOW_PRIVATE": "1" if settings.webhooks_allow_private else "0",
        "WEBHOOK_RETRY_SECONDS": str(settings.webhook_retry_seconds),
        "WEBHOOK_MAX_FAILURES": str(settings.webhook_max_failures),
        "WEBHOOK_DELIVERIES_PER_SECOND": str(settings.webhook_deliveries_per_second),
        **overrides,
    }


def start_worker(settings: Settings, log: Path | None = None, **overrides: str) -> subprocess.Popen:
    """A real `python -m workers` process (RQ worker, relay, sweeper, turn timers, heartbeat);
    `overrides` add settings; its output goes to `log` if given, else to the test's own."""
    output = open(log, "wb") if log else None  # noqa: SIM115 (the child holds it open)
    try:
        # Stops with the test run, even one killed outright (no worker left behind).
        return subprocess.Popen(
            [sys.executable, "-m", "workers"],
            cwd=ROOT,
            env=worker_environment(settings, **overrides),
            stdout=output,
            stderr=output,
            preexec_fn=die_with_parent,
        )
    finally:
        if output:
            output.close()


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
