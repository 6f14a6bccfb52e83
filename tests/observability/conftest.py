"""The app on this session's database and Redis, with its own queue and a test client that, unlike
tests/api's, does not hold responses to openapi.yaml (GET /metrics is not an API resource)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from api import create_app
from events.operations.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def app_settings(database_url: str, redis_url: str, keys: Path, **overrides) -> Settings:
    values = {
        "database_url": database_url,
        "redis_url": redis_url,
        "queue_name": f"observability-{uuid.uuid4().hex[:8]}",
        "audit_key_file": str(keys / "audit-key.pem"),
        "allow_fixed_deck": True,
        "log_level": "WARNING",
        "db_pool_size": 4,
        **overrides,
    }
    return Settings(**values)


@pytest.fixture(scope="module")
def settings(private_database_url, redis_url, tmp_path_factory) -> Settings:
    # A database of the module's own: a worker another test left running on the shared one
    # would take the outbox rows that the outbox figures are tested with.
    return app_settings(private_database_url, redis_url, tmp_path_factory.mktemp("keys"))


@pytest.fixture(scope="module")
def app(settings):
    app = create_app(settings)
    app.config["TESTING"] = True
    yield app
    app.extensions["cardroom"].pool.close()


@pytest.fixture()
def client(app):
    return app.test_client()


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of a /metrics page: (name, labels) -> value."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(page: dict, name: str, **labels: str) -> float:
    return page.get((name, frozenset(labels.items())), 0.0)


def environment(settings: Settings, **overrides: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "RQ_QUEUE": settings.queue_name,
        "AUDIT_KEY_FILE": settings.audit_key_file,
        "LOG_LEVEL": "WARNING",
        **overrides,
    }


def start_worker(settings: Settings, log: Path | None = None, **overrides: str):
    """A real `python -m workers` (RQ worker, relay, sweeper, timers, heartbeat)."""
    with open(log or os.devnull, "wb") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "workers"],
            cwd=ROOT,
            env=environment(settings, **overrides),
            stdout=output,
            stderr=output,
        )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
