"""A throwaway database per test session, migrated, on a real Postgres (no mocks)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from events.postgres.migrate import apply_migrations

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def with_database(url: str, name: str) -> str:
    if "://" in url:
        return urlunsplit(urlsplit(url)._replace(path="/" + name))
    return make_conninfo(url, dbname=name)


@contextmanager
def fresh_database(migrate: bool = True) -> Iterator[str]:
    admin_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    name = f"cardroom_test_{secrets.token_hex(6)}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = with_database(admin_url, name)
    assert conninfo_to_dict(url).get("dbname") == name
    try:
        if migrate:
            apply_migrations(url)
        yield url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture
def empty_database() -> Iterator[str]:
    """An unmigrated database, for the migration tests."""
    with fresh_database(migrate=False) as url:
        yield url


@pytest.fixture
def connect(database_url: str) -> Iterator[Callable[..., psycopg.Connection]]:
    """Opens connections to the test database and closes them after the test."""
    opened: list[psycopg.Connection] = []

    def _connect(**kwargs) -> psycopg.Connection:
        conn = psycopg.connect(database_url, **kwargs)
        opened.append(conn)
        return conn

    yield _connect
    for conn in opened:
        conn.close()
