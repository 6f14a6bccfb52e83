from __future__ import annotations

import dataclasses
import itertools

from events import store
from events.hashchain import GENESIS, fields_of, first_broken_version, hash_event
from tests.store.helpers import events, new_game


def appended_game(conn, batches=(1, 3, 2)):
    game = new_game(conn)
    version = 0
    for n in batches:
        store.append(conn, game, version, events(n))
        version += n
    conn.commit()
    return game


def test_the_hash_chain_links_each_event_to_the_one_before(connect):
    conn = connect()
    log = store.read_stream(conn, appended_game(conn))
    assert log[0].prev_hash == GENESIS
    assert all(later.prev_hash == earlier.hash for earlier, later in itertools.pairwise(log))
    assert all(hash_event(e.prev_hash, fields_of(e)) == e.hash for e in log)
    assert first_broken_version(log) is None


def test_the_stream_row_keeps_the_head_hash(connect):
    conn = connect()
    game = appended_game(conn)
    head = conn.execute("SELECT head_hash FROM streams WHERE game_id = %s", (game,)).fetchone()
    assert head[0] == store.read_stream(conn, game)[-1].hash


def test_a_changed_event_breaks_recomputation(connect):
    conn = connect()
    log = store.read_stream(conn, appended_game(conn))
    forged = dataclasses.replace(log[2], data={"card": "QS"})
    assert first_broken_version([*log[:2], forged, *log[3:]]) == 3
    reseated = dataclasses.replace(log[4], seat=3 - (log[4].seat or 0))
    assert first_broken_version([*log[:4], reseated, *log[5:]]) == 5


def test_an_event_changed_in_the_database_is_detected_on_reading(connect):
    conn = connect()
    game = appended_game(conn)
    conn.execute(
        "UPDATE events SET data = jsonb_set(data, '{card}', '\"2C\"')"
        " WHERE game_id = %s AND version = 4",
        (game,),
    )
    assert first_broken_version(store.read_stream(conn, game)) == 4


def test_a_removed_event_breaks_the_links(connect):
    conn = connect()
    log = store.read_stream(conn, appended_game(conn))
    assert first_broken_version(log[:1] + log[2:]) == 3


def test_the_chain_recomputes_whatever_the_session_time_zone(connect):
    conn = connect()
    game = appended_game(conn)
    conn.execute("SET TimeZone = 'Asia/Kolkata'")
    log = store.read_stream(conn, game)
    assert log[0].recorded_at.utcoffset().total_seconds() != 0
    assert first_broken_version(log) is None
