"""The public log on a real Postgres (a database of its own: the log is one tree for all):
what is queued, appended, signed and proven, and what the tables refuse."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from uuid import UUID, uuid4

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.audit.log_format import open_checkpoint
from events.audit.signing import HeadSigner
from events.postgres.db import make_pool
from events.postgres.migrate import apply_migrations, migration_files
from events.public_log import MAX_ENTRIES, BeyondTheLog, PublicLog
from tests.audit.rfc9162 import mth, path, proof
from tests.store.conftest import fresh_database

ORIGIN = "test.cardroom/log"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with fresh_database() as database:
        yield database


@pytest.fixture(scope="module")
def signer() -> HeadSigner:
    return HeadSigner(Ed25519PrivateKey.generate())


@pytest.fixture(scope="module")
def log(url: str, signer: HeadSigner) -> Iterator[PublicLog]:
    pool = make_pool(url, 6)
    yield PublicLog(pool, signer, ORIGIN)
    pool.close()


def finish_games(url: str, count: int, game_type: str = "st_patrick") -> list[UUID]:
    """Games as a finished game's stream row stands: the final version and head."""
    games = [uuid4() for _ in range(count)]
    with psycopg.connect(url) as conn:
        for version, game_id in enumerate(games, start=3):
            conn.execute(
                "INSERT INTO streams (game_id, game_type, status) VALUES (%s, %s, 'active')",
                (game_id, game_type),
            )
            conn.execute(
                "UPDATE streams SET version = %s, head_hash = %s, status = 'finished'"
                " WHERE game_id = %s",
                (version, secrets.token_hex(32), game_id),
            )
    return games


def all_leaves(log: PublicLog) -> list[bytes]:
    leaves: list[bytes] = []
    while len(leaves) < log.size():
        leaves += [entry.leaf for entry in log.entries(len(leaves), log.size())]
    return leaves


def test_the_empty_tree_is_signed_too(log: PublicLog, signer: HeadSigner) -> None:
    checkpoint = open_checkpoint(log.checkpoint_note(), signer.public_key, ORIGIN)
    assert (checkpoint.size, checkpoint.root) == (0, mth([]))
    assert log.size() == 0


def test_a_finished_game_is_appended_with_its_final_head_type_and_version(
    url: str, log: PublicLog
) -> None:
    (game_id,) = finish_games(url, 1)
    assert log.append_pending() == 1
    with psycopg.connect(url) as conn:
        head, version = conn.execute(
            "SELECT head_hash, version FROM streams WHERE game_id = %s", (game_id,)
        ).fetchone()
    entry = log.entries(log.size() - 1, log.size())[0]
    assert entry.game_id == str(game_id)
    leaf = {"game_id": str(game_id), "head": head, "type": "st_patrick", "version": version}
    assert json.loads(entry.leaf) == leaf
    assert entry.leaf == json.dumps(leaf, sort_keys=True, separators=(",", ":")).encode()


def test_a_game_still_in_play_is_not_appended(url: str, log: PublicLog) -> None:
    with psycopg.connect(url) as conn:
        conn.execute(
            "INSERT INTO streams (game_id, game_type, status) VALUES (%s, 'st_patrick', 'active')",
            (uuid4(),),
        )
    assert log.append_pending() == 0


def test_games_are_appended_in_the_order_they_ended_and_each_once(url: str, log: PublicLog) -> None:
    before = log.size()
    games = finish_games(url, 7)
    while log.append_pending(limit=3):
        pass
    with psycopg.connect(url) as conn:  # queued again by hand: taken off, not appended
        conn.execute("INSERT INTO log_pending (game_id) VALUES (%s)", (games[0],))
    assert log.append_pending() == 1
    assert log.append_pending() == 0
    appended = [e.game_id for e in log.entries(before, log.size())]
    assert appended == [str(g) for g in games]


def test_each_checkpoint_is_signed_over_the_root_of_the_leaves_it_covers(
    url: str, log: PublicLog, signer: HeadSigner
) -> None:
    finish_games(url, 5)
    log.append_pending()
    checkpoint = open_checkpoint(log.checkpoint_note(), signer.public_key, ORIGIN)
    assert checkpoint.size == log.size()
    assert checkpoint.root == mth(all_leaves(log))


def test_every_leaf_is_included_in_every_later_tree(url: str, log: PublicLog) -> None:
    finish_games(url, 20)
    while log.append_pending(limit=6):
        pass
    leaves = all_leaves(log)
    entries = log.entries(0, len(leaves))
    for size in range(1, len(leaves) + 1):
        for entry in entries[:size]:
            inclusion = log.inclusion(entry.game_id, size)
            assert inclusion is not None
            assert (inclusion.index, inclusion.size) == (entry.index, size)
            assert inclusion.hashes == path(entry.index, leaves[:size])


def test_a_leaf_is_not_in_a_tree_older_than_it(url: str, log: PublicLog) -> None:
    (game_id,) = finish_games(url, 1)
    log.append_pending()
    index = log.size() - 1
    assert log.inclusion(str(game_id), index) is None
    assert log.inclusion(str(game_id)) is not None
    assert log.inclusion(str(uuid4())) is None
    assert log.inclusion("not a game id") is None


def test_every_earlier_tree_is_consistent_with_every_later_one(log: PublicLog) -> None:
    leaves = all_leaves(log)
    for second in range(len(leaves) + 1):
        for first in range(second + 1):
            expected = [] if first == 0 else proof(first, leaves[:second])
            assert log.consistency(first, second) == expected


@pytest.mark.parametrize(("first", "second"), [(-1, 1), (2, 1), (0, 10**9)])
def test_no_consistency_proof_beyond_the_latest_checkpoint_or_out_of_order(
    log: PublicLog, first: int, second: int
) -> None:
    with pytest.raises(BeyondTheLog):
        log.consistency(first, second)


def test_no_inclusion_proof_in_a_tree_larger_than_the_latest_checkpoint(log: PublicLog) -> None:
    entry = log.entries(0, 1)[0]
    with pytest.raises(BeyondTheLog):
        log.inclusion(entry.game_id, log.size() + 1)


def test_entries_stop_at_the_latest_checkpoint_and_at_a_page(url: str, log: PublicLog) -> None:
    size = log.size()
    assert [e.index for e in log.entries(size - 2, size + 5)] == [size - 2, size - 1]
    assert log.entries(size, size + 5) == []
    finish_games(url, MAX_ENTRIES + 10)
    while log.append_pending():
        pass
    assert len(log.entries(0, log.size())) == MAX_ENTRIES


@pytest.mark.parametrize("table", ["log_leaves", "log_subtrees", "log_checkpoints"])
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE {table} SET {column} = {column}",
        "DELETE FROM {table}",
        "TRUNCATE {table}",
    ],
)
def test_the_logs_tables_refuse_every_change_but_an_append(
    url: str, log: PublicLog, table: str, statement: str
) -> None:
    assert log.size() > 0
    column = {"log_leaves": "leaf", "log_subtrees": "hash", "log_checkpoints": "note"}[table]
    with psycopg.connect(url) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute(statement.format(table=table, column=column))


def test_two_appenders_at_once_never_fork_the_tree(
    url: str, log: PublicLog, signer: HeadSigner
) -> None:
    before = log.size()
    games = finish_games(url, 120)
    pools = [make_pool(url, 2) for _ in range(4)]
    others = [PublicLog(pool, signer, ORIGIN) for pool in pools]
    start = threading.Barrier(len(others))
    failures: list[BaseException] = []

    def append(appender: PublicLog) -> None:
        start.wait()
        try:
            while appender.append_pending(limit=7):
                pass
        except BaseException as error:  # noqa: BLE001 - the test reports it
            failures.append(error)

    threads = [threading.Thread(target=append, args=(o,)) for o in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    entries = log.entries(before, log.size())
    assert sorted(e.game_id for e in entries) == sorted(str(g) for g in games)
    leaves = all_leaves(log)
    with psycopg.connect(url) as conn:
        notes = conn.execute("SELECT size, note FROM log_checkpoints ORDER BY size").fetchall()
    for size, note in notes:  # every checkpoint ever signed is a prefix of today's tree
        assert open_checkpoint(bytes(note), signer.public_key).root == mth(leaves[:size])
    for pool in pools:
        pool.close()


def test_the_migration_queues_the_games_that_finished_before_it_in_the_order_they_ended(
    empty_database: str,
) -> None:
    files = migration_files()
    log_migration = next(f for f in files if f.name.startswith("0014_"))
    apply_migrations(empty_database, [f for f in files if f < log_migration])
    games = [uuid4() for _ in range(4)]
    with psycopg.connect(empty_database) as conn:
        for minutes, game_id in zip([3, 1, 4, 2], games, strict=True):
            conn.execute(
                "INSERT INTO streams (game_id, game_type, status, updated_at)"
                " VALUES (%s, 'st_patrick', 'finished', now() - %s * interval '1 minute')",
                (game_id, minutes),
            )
    apply_migrations(empty_database)
    with psycopg.connect(empty_database) as conn:
        queued = [r[0] for r in conn.execute("SELECT game_id FROM log_pending ORDER BY id")]
    assert queued == [games[2], games[0], games[3], games[1]]
