"""Session fixtures for tests that need real Postgres and Redis.

`make test` sets DATABASE_URL and REDIS_URL (embedded servers unless already set). Each session
gets its own migrated database `cardroom_test_<hex>`, dropped at the end, and its own RQ queue.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

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


def with_database(url: str, dbname: str) -> str:
    """The same server and credentials as url, database dbname (URL or key=value form)."""
    if "://" in url:
        parts = urlsplit(url)
        return urlunsplit(parts._replace(path=f"/{dbname}"))
    return make_conninfo(url, dbname=dbname)


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    from events.migrate import apply_migrations

    server_url = _required_env("DATABASE_URL")
    name = f"cardroom_test_{SESSION_ID}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = with_database(server_url, name)
    try:
        apply_migrations(url)
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture(scope="session")
def redis_url() -> str:
    return _required_env("REDIS_URL")


@pytest.fixture(scope="session")
def queue_name() -> str:
    """An RQ queue name no other test session uses (the Redis server may be shared)."""
    return f"cardroom-test-{SESSION_ID}"
