from __future__ import annotations

from uuid import uuid4

import pytest

from events.postgres import store
from events.postgres.db import make_pool
from events.postgres.snapshots import load_snapshot, save_snapshot


def test_games_list_newest_first_with_a_cursor_and_filters(connect):
    conn = connect()
    game_type = f"type-{uuid4().hex[:8]}"
    games = [uuid4() for _ in range(5)]
    for game in games:
        store.create_stream(conn, game, game_type)
        conn.commit()  # one transaction each, so created_at grows
    store.set_stream_status(conn, games[1], "active")
    store.set_stream_status(conn, games[3], "active")
    conn.commit()

    first = store.list_streams(conn, game_type=game_type, limit=3)
    rest = store.list_streams(conn, game_type=game_type, before=first[-1].cursor, limit=3)
    assert [s.game_id for s in first + rest] == games[::-1]
    active = store.list_streams(conn, status="active", game_type=game_type)
    assert [s.game_id for s in active] == [games[3], games[1]]
    assert {s.game_type for s in store.list_streams(conn, status="waiting")} >= {game_type}


def test_an_unknown_status_or_game_is_refused(connect):
    conn = connect()
    with pytest.raises(ValueError):
        store.set_stream_status(conn, uuid4(), "paused")
    with pytest.raises(store.GameNotFound):
        store.set_stream_status(conn, uuid4(), "finished")


def test_a_snapshot_is_only_replaced_by_a_newer_one(connect):
    conn = connect()
    game = uuid4()
    store.create_stream(conn, game, "hearts")
    assert load_snapshot(conn, game) is None
    save_snapshot(conn, game, 5, {"turn": 5})
    save_snapshot(conn, game, 3, {"turn": 3})
    assert load_snapshot(conn, game) == (5, {"turn": 5})
    save_snapshot(conn, game, 9, {"turn": 9})
    assert load_snapshot(conn, game) == (9, {"turn": 9})


def test_the_pool_hands_out_autocommit_dict_row_connections(database_url):
    with make_pool(database_url, max_size=2) as pool, pool.connection() as conn:
        assert conn.autocommit is True
        row = conn.execute("SELECT current_setting('statement_timeout') AS t").fetchone()
        assert row == {"t": "15s"}
