"""Applies events/postgres/migrations/*.sql in name order, each once, each in its own transaction.

`python -m events.postgres.migrate` migrates $DATABASE_URL. A session advisory lock serializes
concurrent starters (several API and worker processes booting at once).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import psycopg
from psycopg.rows import TupleRow

from events.operations.settings import settings_or_exit

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
# Any constant works; it only has to be the same in every process.
LOCK_KEY = 0x63617264726F6F6D  # "cardroom"


class MigrationChanged(Exception):
    """An applied migration file was edited afterwards: add a new file instead."""


class NoMigrations(Exception):
    """No migration files where they belong: the package was built without its data files."""


def migration_files() -> list[Path]:
    files = sorted(MIGRATIONS_DIR.glob("*.sql"))
    if not files:  # else an install without them would call an empty database "up to date"
        raise NoMigrations(f"no migrations in {MIGRATIONS_DIR}")
    return files


def checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _applied(conn: psycopg.Connection[TupleRow]) -> dict[str, str]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " name text PRIMARY KEY, checksum text NOT NULL,"
        " applied_at timestamptz NOT NULL DEFAULT now())"
    )
    rows = conn.execute("SELECT name, checksum FROM schema_migrations").fetchall()
    return dict(rows)


def _apply_one(conn: psycopg.Connection[TupleRow], path: Path) -> None:
    with conn.transaction():
        # No parameters: psycopg sends the file as one simple query, several statements allowed.
        conn.execute(path.read_text(encoding="utf-8").encode())
        conn.execute(
            "INSERT INTO schema_migrations (name, checksum) VALUES (%s, %s)",
            (path.name, checksum(path)),
        )


def apply_migrations(database_url: str, files: list[Path] | None = None) -> list[str]:
    """Applies the pending migrations (of `files`, by default all); returns the names applied
    now (empty when up to date)."""
    applied_now: list[str] = []
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            done = _applied(conn)
            for path in migration_files() if files is None else files:
                if path.name in done:
                    if done[path.name] != checksum(path):
                        raise MigrationChanged(path.name)
                    continue
                _apply_one(conn, path)
                applied_now.append(path.name)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return applied_now


def main() -> None:
    url = settings_or_exit().database_url
    if not url:
        sys.exit("DATABASE_URL is not set")
    names = apply_migrations(url)
    print("applied: " + ", ".join(names) if names else "up to date")


if __name__ == "__main__":
    main()
