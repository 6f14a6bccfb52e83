from __future__ import annotations

import threading

import psycopg
import pytest

from events.migrate import MigrationChanged, apply_migrations, migration_files


def applied(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()
    return [row[0] for row in rows]


def test_migrations_are_idempotent(empty_database):
    names = [path.name for path in migration_files()]
    assert apply_migrations(empty_database) == names
    assert apply_migrations(empty_database) == []
    assert applied(empty_database) == names


def test_concurrent_starters_apply_each_migration_once(empty_database):
    barrier = threading.Barrier(4)
    results: list[object] = []

    def start() -> None:
        barrier.wait()
        try:
            results.append(apply_migrations(empty_database))
        except Exception as error:  # noqa: BLE001 - the test reports it
            results.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(len, results)) == [0, 0, 0, len(migration_files())], results


def test_an_edited_migration_is_refused(empty_database):
    apply_migrations(empty_database)
    with psycopg.connect(empty_database) as conn:
        conn.execute("UPDATE schema_migrations SET checksum = 'edited'")
    with pytest.raises(MigrationChanged):
        apply_migrations(empty_database)
