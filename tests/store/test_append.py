from __future__ import annotations

import threading
import time
from uuid import uuid4

import psycopg
import pytest

from events.postgres import store
from events.postgres.store import GameExists, GameNotFound, NewEvent, VersionConflict
from tests.store.helpers import events, new_game


def test_appends_get_dense_versions_after_the_expected_version(connect):
    conn = connect()
    game = new_game(conn)
    first = store.append(conn, game, 0, events(3))
    second = store.append(conn, game, 3, events(2))
    conn.commit()
    assert [e.version for e in first + second] == [1, 2, 3, 4, 5]
    assert [e.version for e in store.read_stream(conn, game)] == [1, 2, 3, 4, 5]
    assert store.stream_version(conn, game) == 5


def test_the_append_returns_what_a_read_returns(connect):
    conn = connect()
    game = new_game(conn)
    new = [
        NewEvent("HandDealt", {"cards": ["AS", "KH"], "ünï": "ok"}, None, (2,)),
        NewEvent("CardPlayed", {"card": "AS"}, 1, None),
        NewEvent("Secret", {}, 0, ()),
    ]
    appended = store.append(conn, game, 0, new)
    conn.commit()
    assert store.read_stream(conn, game) == appended
    assert [e.global_position for e in appended] == sorted(e.global_position for e in appended)


def test_appending_at_a_stale_version_raises_version_conflict_with_the_current_version(connect):
    conn = connect()
    game = new_game(conn)
    store.append(conn, game, 0, events(2))
    conn.commit()
    with pytest.raises(VersionConflict) as raised:
        store.append(conn, game, 1, events(1))
    assert raised.value.current_version == 2


def test_appending_to_a_missing_stream_raises_stream_not_found(connect):
    with pytest.raises(GameNotFound):
        store.append(connect(), uuid4(), 0, events(1))


def test_creating_a_stream_twice_raises_stream_exists_and_keeps_the_transaction_usable(connect):
    conn = connect()
    game = new_game(conn)
    with pytest.raises(GameExists):
        store.create_stream(conn, game, "hearts")
    assert store.stream_version(conn, game) == 0


def test_a_rolled_back_append_leaves_no_trace(connect):
    conn = connect()
    game = new_game(conn)
    store.append(conn, game, 0, events(2))
    conn.rollback()
    assert store.stream_version(conn, game) == 0
    assert store.read_stream(conn, game) == []
    assert [e.version for e in store.append(conn, game, 0, events(1))] == [1]


def test_read_stream_reads_after_a_version_up_to_a_limit(connect):
    conn = connect()
    game = new_game(conn)
    store.append(conn, game, 0, events(6))
    conn.commit()
    assert [e.version for e in store.read_stream(conn, game, after=2, limit=3)] == [3, 4, 5]
    assert store.stream_version(conn, uuid4()) is None


def test_two_appenders_at_the_same_version_exactly_one_wins(connect):
    game = new_game(connect())
    barrier = threading.Barrier(2)
    results: list[object] = []

    def appender() -> None:
        conn = connect()
        barrier.wait()
        try:
            store.append(conn, game, 0, events(1))
            time.sleep(0.05)  # hold the row lock so the other writer has to queue behind it
            conn.commit()
            results.append("won")
        except VersionConflict as conflict:
            conn.rollback()
            results.append(conflict.current_version)

    threads = [threading.Thread(target=appender) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results, key=str) == [1, "won"]
    assert store.stream_version(connect(), game) == 1


def test_the_append_notifies_listeners_of_the_game_and_its_first_new_version_when_it_commits(
    connect,
):
    listener = connect(autocommit=True)
    listener.execute("LISTEN game_events")
    conn = connect()
    game = new_game(conn)
    store.append(conn, game, 0, events(2))
    assert list(listener.notifies(timeout=0.2, stop_after=1)) == []
    conn.commit()
    received = list(listener.notifies(timeout=5, stop_after=1))
    assert [(n.channel, n.payload) for n in received] == [("game_events", f"{game} 1")]


def test_events_cannot_be_appended_without_a_stream_even_by_raw_sql(connect):
    conn = connect()
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        conn.execute(
            "INSERT INTO events (game_id, version, type, data, recorded_at, prev_hash, hash)"
            " VALUES (%s, 1, 'X', '{}', now(), '', '')",
            (uuid4(),),
        )
