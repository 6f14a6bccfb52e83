from __future__ import annotations

import json
import random
import threading
import uuid
from datetime import UTC, datetime

import psycopg
import pytest
from psycopg.types.json import Jsonb

from domain.games import GAME_TYPES
from domain.kit.codec import canonical_json, to_json
from domain.tables.selfplay import play_out
from events.audit.chain import GENESIS, event_hash, timestamp
from events.audit.log_checks import check_log
from events.postgres import migrate, store
from events.postgres.migrate import MigrationChanged, apply_migrations, migration_files


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


def test_an_install_without_its_migration_files_says_so_rather_than_up_to_date(
    empty_database, tmp_path, monkeypatch
):
    monkeypatch.setattr(migrate, "MIGRATIONS_DIR", tmp_path)  # as in a wheel built without them
    with pytest.raises(migrate.NoMigrations):
        apply_migrations(empty_database)


def test_an_edited_migration_is_refused(empty_database):
    apply_migrations(empty_database)
    with psycopg.connect(empty_database) as conn:
        conn.execute("UPDATE schema_migrations SET checksum = 'edited'")
    with pytest.raises(MigrationChanged):
        apply_migrations(empty_database)


def test_games_stored_before_chain_formats_keep_format_1_and_still_verify(empty_database):
    """A game written by the code before 0003 (format-1 hashes, no nonce column) is still
    checked by its own rule after the migration; games created afterwards get format 2."""
    before = [path for path in migration_files() if path.name < "0003"]
    apply_migrations(empty_database, before)
    game_id, records = legacy_records()
    with psycopg.connect(empty_database) as conn:
        conn.execute(
            "INSERT INTO streams (game_id, game_type, status, version, head_hash)"
            " VALUES (%s, 'trick_and_snipers', 'finished', %s, %s)",
            (game_id, len(records), records[-1]["hash"]),
        )
        for r in records:
            conn.execute(
                "INSERT INTO events (game_id, version, type, seat, data, visible_to,"
                " recorded_at, prev_hash, hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (game_id, r["version"], r["type"], r["seat"], Jsonb(r["data"]), r["visible_to"],
                 r["recorded_at"], r["prev_hash"], r["hash"]),
            )  # fmt: skip
    assert "0003_chain_format.sql" in apply_migrations(empty_database)
    with psycopg.connect(empty_database) as conn:
        fmt = conn.execute("SELECT chain_format FROM streams WHERE game_id = %s", (game_id,))
        assert fmt.fetchone()[0] == 1
        stored = [{**e.record(), "prev_hash": e.prev_hash, "hash": e.hash}
                  for e in store.read_stream(conn, game_id)]  # fmt: skip
        new_game = uuid.uuid4()
        store.create_stream(conn, new_game, "trick_and_snipers")
        assert store.lock_stream(conn, new_game).chain_format == 2
    checked = check_log(str(game_id), 1, stored)
    assert checked.chain.ok and checked.chain.head == records[-1]["hash"]
    assert checked.rules.ok and checked.rules.table.status == "finished"


def legacy_records() -> tuple[uuid.UUID, list[dict]]:
    """A finished bot game hashed the way the store did before chain formats."""
    _, events = play_out(GAME_TYPES["trick_and_snipers"], ["random"] * 3, random.Random(5))
    game_id, prev, records = uuid.uuid4(), GENESIS, []
    moment = datetime(2026, 6, 1, 12, 0, 0, 5, tzinfo=UTC)
    for version, event in enumerate(events, start=1):
        visible = event.visible_to()
        record = {
            "version": version,
            "type": type(event).__name__,
            "seat": event.actor(),
            "visible_to": None if visible is None else list(visible),
            "recorded_at": timestamp(moment),
            "data": json.loads(canonical_json(to_json(event))),
            "nonce": None,
            "prev_hash": prev,
        }
        record["hash"] = prev = event_hash(1, str(game_id), prev, record)
        records.append(record)
    return game_id, records
