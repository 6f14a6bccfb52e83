"""Throwaway databases on a real Postgres server: a test session's, a chaos scenario's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo


def with_database(url: str, dbname: str) -> str:
    """The same server and credentials as url, database dbname (URL or key=value form)."""
    if "://" in url:
        parts = urlsplit(url)
        return urlunsplit(parts._replace(path=f"/{dbname}"))
    return make_conninfo(url, dbname=dbname)


@contextmanager
def temporary_database(server_url: str, name: str, migrate: bool = True) -> Iterator[str]:
    """A database on the server of server_url, migrated unless told not to, dropped afterwards."""
    from events.postgres.migrate import apply_migrations

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = with_database(server_url, name)
    try:
        if migrate:
            apply_migrations(url)
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
