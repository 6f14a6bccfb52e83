"""The log appender in real worker processes (python -m workers) on a database of this module's
own: a finished game's leaf within 10 s, exactly once, through a worker killed (SIGKILL)
between the game's end and its append, and with several workers at once."""

from __future__ import annotations

import random
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from domain.games import GAME_TYPES
from domain.tables.selfplay import play_out
from events.audit.log_format import leaf_bytes, open_checkpoint
from events.audit.signing import load_or_create_signer
from events.operations.settings import Settings
from events.postgres import store
from events.records import new_events
from tests.audit.rfc9162 import mth
from tests.service import start_worker, stop_worker

APPENDED_WITHIN = 10.0  # seconds after the game's end (docs/api.md)


@pytest.fixture(scope="module")
def settings(private_database_url, redis_url, tmp_path_factory) -> Settings:
    return Settings(
        database_url=private_database_url,
        redis_url=redis_url,
        queue_name=f"log-appender-{uuid.uuid4().hex[:8]}",
        audit_key_file=str(tmp_path_factory.mktemp("keys") / "audit-key.pem"),
    )


@pytest.fixture()
def workers(settings) -> Iterator[list[subprocess.Popen]]:
    """Worker processes started by the test; each stopped (or found killed) at its end."""
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        if process.poll() is None:
            stop_worker(process)


def finish_game(settings: Settings, seed: int) -> uuid.UUID:
    """A whole game of bots played by the domain and committed as the service would (the
    real chain, signed head, status finished), in one transaction."""
    game_type = GAME_TYPES["trick_and_snipers"]
    table, events = play_out(game_type, ["random"] * 3, random.Random(seed))
    signer = load_or_create_signer(settings.audit_key_path)
    game_id = uuid.uuid4()
    with psycopg.connect(settings.database_url) as conn, conn.transaction():
        store.create_stream(conn, game_id, game_type.id)
        store.append(conn, game_id, 0, new_events(events), sign=signer.sign)
        store.set_stream_status(conn, game_id, table.status)
    return game_id


def leaves_of(settings: Settings, game_id: uuid.UUID) -> list[tuple[int, bytes]]:
    with psycopg.connect(settings.database_url) as conn:
        rows = conn.execute(
            "SELECT index, leaf FROM log_leaves WHERE game_id = %s", (game_id,)
        ).fetchall()
    return [(index, bytes(leaf)) for index, leaf in rows]


def wait_for_leaf(settings: Settings, game_id: uuid.UUID, within: float = APPENDED_WITHIN):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = leaves_of(settings, game_id)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} is not in the log after {within} s")


def wait_for_an_appender(settings: Settings, timeout: float = 30.0) -> None:
    """Until a worker is up and has signed the log (the empty tree at least)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with psycopg.connect(settings.database_url) as conn:
            if conn.execute("SELECT 1 FROM log_checkpoints LIMIT 1").fetchone():
                return
        time.sleep(0.1)
    raise AssertionError("no worker appends to the log")


def the_whole_log(settings: Settings) -> tuple[list[uuid.UUID], list[bytes], list]:
    with psycopg.connect(settings.database_url) as conn:
        rows = conn.execute("SELECT index, game_id, leaf FROM log_leaves ORDER BY index").fetchall()
        notes = conn.execute("SELECT size, note FROM log_checkpoints ORDER BY size").fetchall()
    assert [row[0] for row in rows] == list(range(len(rows))), "the leaves' indexes have gaps"
    return [row[1] for row in rows], [bytes(row[2]) for row in rows], notes


def test_a_finished_games_leaf_is_appended_within_10_s_with_its_final_head(
    settings, workers
) -> None:
    workers.append(start_worker(settings))
    wait_for_an_appender(settings)
    game_id = finish_game(settings, seed=1)
    ended = time.monotonic()
    ((_, leaf),) = wait_for_leaf(settings, game_id)
    assert time.monotonic() - ended < APPENDED_WITHIN
    with psycopg.connect(settings.database_url) as conn:
        head, version = conn.execute(
            "SELECT head_hash, version FROM streams WHERE game_id = %s", (game_id,)
        ).fetchone()
    assert leaf == leaf_bytes(str(game_id), head, "trick_and_snipers", version)


def test_a_worker_killed_between_a_games_end_and_its_append_appends_it_once_restarted(
    settings, workers
) -> None:
    workers.append(start_worker(settings))
    wait_for_an_appender(settings)
    workers[0].send_signal(signal.SIGSTOP)  # it holds the lock, and appends nothing now
    game_id = finish_game(settings, seed=2)
    time.sleep(1.5)  # past its next pass, had it been running
    workers[0].send_signal(signal.SIGKILL)
    workers[0].wait(timeout=10)
    assert leaves_of(settings, game_id) == []
    workers.append(start_worker(settings))
    assert len(wait_for_leaf(settings, game_id, within=APPENDED_WITHIN + 5)) == 1
    time.sleep(2)  # another pass or two: still once
    assert len(leaves_of(settings, game_id)) == 1


def test_games_ending_while_workers_are_killed_and_restarted_are_each_in_the_log_once(
    settings, workers
) -> None:
    rng = random.Random(5)
    workers += [start_worker(settings), start_worker(settings)]  # one appends, one stands by
    wait_for_an_appender(settings)
    games = []
    for round_ in range(3):
        for seed in range(8):
            games.append(finish_game(settings, seed=100 * round_ + seed))
            time.sleep(rng.uniform(0, 0.15))
        victim = next(p for p in workers if p.poll() is None)
        victim.send_signal(signal.SIGKILL)  # mid-batch, or between batches
        victim.wait(timeout=10)
        workers.append(start_worker(settings))
    for game_id in games:
        wait_for_leaf(settings, game_id, within=APPENDED_WITHIN + 10)
    logged, leaves, notes = the_whole_log(settings)
    assert len(logged) == len(set(logged)), "a game is in the log twice"
    assert set(games) <= set(logged)
    key = load_or_create_signer(settings.audit_key_path).public_key
    for size, note in notes:  # every checkpoint signed is a prefix of the one tree
        assert open_checkpoint(bytes(note), key).root == mth(leaves[:size])
