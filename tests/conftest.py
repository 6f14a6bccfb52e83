"""Session fixtures for tests that need real Postgres and Redis.

`make test` sets DATABASE_URL and REDIS_URL (embedded servers unless already set). Each session
gets its own migrated database `cardroom_test_<hex>`, dropped at the end, and its own RQ queue.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from testing.databases import temporary_database

SESSION_ID = uuid.uuid4().hex[:12]


def _required_env(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        pytest.fail(
            f"{name} is not set: run the suite with `make test`, or set {name} "
            "to a server this test session may use",
            pytrace=False,
        )
    return value


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    with temporary_database(_required_env("DATABASE_URL"), f"cardroom_test_{SESSION_ID}") as url:
        yield url


@pytest.fixture(scope="module")
def private_database_url() -> Iterator[str]:
    """A database of this module's own, for tests that must not share it with a running
    worker process (whose relay would take their outbox rows)."""
    name = f"cardroom_test_{SESSION_ID}_{uuid.uuid4().hex[:6]}"
    with temporary_database(_required_env("DATABASE_URL"), name) as url:
        yield url


@pytest.fixture()
def empty_database_url() -> Iterator[str]:
    """A database with nothing in it, not even migrations, of this test's own."""
    name = f"cardroom_test_{SESSION_ID}_{uuid.uuid4().hex[:6]}"
    with temporary_database(_required_env("DATABASE_URL"), name, migrate=False) as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> str:
    return _required_env("REDIS_URL")


@pytest.fixture(scope="session")
def queue_name() -> str:
    """An RQ queue name no other test session uses (the Redis server may be shared)."""
    return f"cardroom-test-{SESSION_ID}"
