from __future__ import annotations

import random
import threading
import time

from events.postgres import store
from events.postgres.global_reader import START, Checkpoint, read_global
from events.postgres.store import VersionConflict
from tests.store.helpers import events, new_game

WRITERS = 16
APPENDS_PER_WRITER = 30
GAMES = 6


def read_to_end(conn, checkpoint: Checkpoint) -> tuple[list, Checkpoint]:
    seen = []
    while True:
        batch, checkpoint = read_global(conn, checkpoint, limit=50)
        if not batch:
            return seen, checkpoint
        seen += batch


def poll(conn, checkpoint: Checkpoint, timeout: float = 10.0) -> list:
    """Reads until something arrives: transactions elsewhere on the server (other test
    databases too) hold xmin back for a while, which delays the reader but never skips."""
    deadline = time.monotonic() + timeout
    while True:
        batch, _ = read_global(conn, checkpoint)
        if batch or time.monotonic() > deadline:
            return batch
        time.sleep(0.01)


def wait_until_readable(conn, games, timeout: float = 30.0) -> None:
    """Waits until the snapshot xmin passes our last writer: until then other transactions on
    the server (other test databases too) may still hide some of our events from the reader."""
    last = conn.execute(
        "SELECT max(tx_id)::text FROM events WHERE game_id = ANY(%s)", (games,)
    ).fetchone()[0]
    conn.commit()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        xmin = conn.execute("SELECT pg_snapshot_xmin(pg_current_snapshot())::text").fetchone()[0]
        conn.commit()
        if int(xmin) > int(last):
            return
        time.sleep(0.01)
    raise AssertionError("xmin did not pass the writers: a transaction is left open")


def append_with_retries(conn, game, rng: random.Random) -> None:
    while True:
        try:
            with conn.transaction():
                version = store.stream_version(conn, game)
                time.sleep(rng.uniform(0, 0.002))
                store.append(conn, game, version, events(rng.randint(1, 3)))
                time.sleep(rng.uniform(0, 0.004))  # commit late, out of identity order
            return
        except VersionConflict:
            time.sleep(rng.uniform(0, 0.001))


def test_the_global_reader_sees_every_committed_event_exactly_once_under_concurrent_writers(
    connect,
):
    setup = connect()
    games = [new_game(setup) for _ in range(GAMES)]
    _, checkpoint = read_to_end(connect(autocommit=True), START)
    done = threading.Event()
    seen: list = []

    def writer(seed: int) -> None:
        conn, rng = connect(autocommit=True), random.Random(seed)
        for _ in range(APPENDS_PER_WRITER):
            append_with_retries(conn, rng.choice(games), rng)

    def reader() -> None:
        nonlocal checkpoint
        conn = connect(autocommit=True)
        while not done.is_set():
            batch, checkpoint = read_global(conn, checkpoint, limit=37)
            seen.extend(batch)
        tail, checkpoint = read_to_end(conn, checkpoint)  # drain after the last commit
        seen.extend(tail)

    threads = [threading.Thread(target=writer, args=(seed,)) for seed in range(WRITERS)]
    reading = threading.Thread(target=reader)
    reading.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wait_until_readable(setup, games)
    done.set()
    reading.join()

    committed = setup.execute(
        "SELECT global_position FROM events WHERE game_id = ANY(%s)", (games,)
    ).fetchall()
    positions = [e.global_position for e in seen]
    assert len(positions) == len(set(positions)), "an event was read twice"
    assert set(positions) == {row[0] for row in committed}, "an event was missed"
    assert len(committed) >= WRITERS * APPENDS_PER_WRITER
    for game in games:
        versions = [e.version for e in seen if e.game_id == game]
        assert sorted(versions) == list(range(1, len(versions) + 1)), "versions are not dense"


def test_the_global_reader_waits_for_an_older_open_transaction(connect):
    setup = connect()
    first_game, second_game = new_game(setup), new_game(setup)
    reader = connect(autocommit=True)
    _, checkpoint = read_to_end(reader, START)
    slow, fast = connect(), connect()
    store.append(slow, first_game, 0, events(1))  # takes the older transaction id, stays open
    store.append(fast, second_game, 0, events(1))
    fast.commit()
    batch, checkpoint = read_global(reader, checkpoint)
    assert batch == []  # reading the fast one now would skip the slow one for ever
    slow.commit()
    batch = poll(reader, checkpoint)
    assert [e.game_id for e in batch] == [first_game, second_game]
