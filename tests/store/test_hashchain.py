from __future__ import annotations

import dataclasses
import itertools

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.audit.chain import GENESIS, NONCE, check_chain, event_hash
from events.audit.signing import HeadSigner, signature_is_valid
from events.postgres import store
from events.postgres.store import NewEvent
from tests.store.helpers import events, new_game


def appended_game(conn, batches=(1, 3, 2), sign=None):
    game = new_game(conn)
    version = 0
    for n in batches:
        store.append(conn, game, version, events(n), sign=sign)
        version += n
    conn.commit()
    return game


def first_broken_version(log):
    if not log:
        return None
    records = [{**e.record(), "prev_hash": e.prev_hash, "hash": e.hash} for e in log]
    return check_chain(2, str(log[0].game_id), records).first_bad_version


def test_the_hash_chain_links_each_event_to_the_one_before(connect):
    conn = connect()
    log = store.read_stream(conn, appended_game(conn))
    assert log[0].prev_hash == GENESIS
    assert all(later.prev_hash == earlier.hash for earlier, later in itertools.pairwise(log))
    assert all(event_hash(2, str(e.game_id), e.prev_hash, e.record()) == e.hash for e in log)
    assert first_broken_version(log) is None


def test_the_stream_row_keeps_the_head_hash_and_its_signature(connect):
    conn = connect()
    signer = HeadSigner(Ed25519PrivateKey.generate())
    game = appended_game(conn, sign=signer.sign)
    row = conn.execute(
        "SELECT version, head_hash, head_signature FROM streams WHERE game_id = %s", (game,)
    ).fetchone()
    assert row[1] == store.read_stream(conn, game)[-1].hash
    assert signature_is_valid(signer.public_key, str(game), row[0], row[1], row[2])
    other = HeadSigner(Ed25519PrivateKey.generate())
    assert not signature_is_valid(other.public_key, str(game), row[0], row[1], row[2])


def test_only_events_that_are_not_public_carry_a_nonce_and_each_its_own(connect):
    conn = connect()
    game = new_game(conn)
    secret = [NewEvent("HandDealt", {"seat": s, "cards": []}, s, (s,)) for s in range(3)]
    store.append(conn, game, 0, [*secret, *events(2)])
    conn.commit()
    log = store.read_stream(conn, game)
    nonces = [e.nonce for e in log[:3]]
    assert all(NONCE.fullmatch(n) for n in nonces) and len(set(nonces)) == 3
    assert [e.nonce for e in log[3:]] == [None, None]
    assert first_broken_version(log) is None


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
    assert first_broken_version(log[:1] + log[2:]) == 2


def test_the_chain_recomputes_whatever_the_session_time_zone(connect):
    conn = connect()
    game = appended_game(conn)
    conn.execute("SET TimeZone = 'Asia/Kolkata'")
    log = store.read_stream(conn, game)
    assert log[0].recorded_at.utcoffset().total_seconds() != 0
    assert first_broken_version(log) is None
