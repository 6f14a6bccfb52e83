from __future__ import annotations

import threading
import time

from events.idempotent_requests import ClaimKind, request_hash
from events.postgres import idempotency

SCOPE = "game:42"


def test_a_first_claim_is_new_and_a_second_after_completion_replays_the_record(connect):
    conn = connect()
    assert idempotency.claim(conn, SCOPE, "k1", "h").kind == ClaimKind.NEW
    idempotency.complete(conn, SCOPE, "k1", {"version": 3})
    conn.commit()
    again = idempotency.claim(conn, SCOPE, "k1", "h")
    assert (again.kind, again.record) == ("replay", {"version": 3})


def test_the_same_key_with_a_different_request_is_reused(connect):
    conn = connect()
    idempotency.claim(conn, SCOPE, "k2", "h")
    idempotency.complete(conn, SCOPE, "k2", {})
    conn.commit()
    assert idempotency.claim(conn, SCOPE, "k2", "other").kind == ClaimKind.REUSED


def test_keys_are_scoped(connect):
    conn = connect()
    assert idempotency.claim(conn, "game:1", "k3", "h").kind == ClaimKind.NEW
    assert idempotency.claim(conn, "game:2", "k3", "h").kind == ClaimKind.NEW


def test_a_rolled_back_claim_vanishes(connect):
    conn = connect()
    assert idempotency.claim(conn, SCOPE, "k4", "h").kind == ClaimKind.NEW
    conn.rollback()
    assert idempotency.claim(conn, SCOPE, "k4", "h").kind == ClaimKind.NEW


def test_concurrent_requests_with_the_same_key_get_exactly_one_new_claim(connect):
    barrier = threading.Barrier(8)
    kinds: list[str] = []

    def request() -> None:
        conn = connect()
        barrier.wait()
        claim = idempotency.claim(conn, SCOPE, "k5", "h")
        kinds.append(claim.kind)
        if claim.kind == ClaimKind.NEW:
            time.sleep(0.1)  # the work, while the others ask
            idempotency.complete(conn, SCOPE, "k5", {"ok": True})
        conn.commit()

    threads = [threading.Thread(target=request) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(kinds) == ["in_progress"] * 7 + ["new"]
    assert idempotency.claim(connect(), SCOPE, "k5", "h").kind == ClaimKind.REPLAY


def test_a_claim_waits_for_nothing_while_another_transaction_holds_the_key(connect):
    first, second = connect(), connect()
    assert idempotency.claim(first, SCOPE, "k6", "h").kind == ClaimKind.NEW
    started = time.monotonic()
    assert idempotency.claim(second, SCOPE, "k6", "h").kind == ClaimKind.IN_PROGRESS
    assert time.monotonic() - started < 0.5
    second.rollback()
    idempotency.complete(first, SCOPE, "k6", [1, 2])
    first.commit()
    assert idempotency.claim(second, SCOPE, "k6", "h").record == [1, 2]


def test_purging_keeps_keys_for_at_least_a_day(connect):
    conn = connect()
    for key, age in (("old", "25 hours"), ("young", "23 hours")):
        idempotency.claim(conn, "purge", key, "h")
        idempotency.complete(conn, "purge", key, {})
        conn.execute(
            "UPDATE idempotency SET created_at = now() - %s::interval"
            " WHERE key_scope = 'purge' AND key = %s",
            (age, key),
        )
    conn.commit()
    assert idempotency.purge_expired(conn, older_than_hours=1) == 1
    remaining = conn.execute("SELECT key FROM idempotency WHERE key_scope = 'purge'").fetchall()
    assert remaining == [("young",)]


def test_request_hashes_distinguish_how_the_parts_are_split():
    assert request_hash("POST", "/a", "b") != request_hash("POST", "/ab", "")
    assert request_hash("x", b"y") == request_hash("x", "y")
