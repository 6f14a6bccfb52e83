"""The embedded Postgres and Redis behind `make run` start, keep their data, and restart."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
import redis

from embedded.ports import free_port
from embedded.services import ensure_services, stop_embedded

pytestmark = [
    pytest.mark.embedded,
    pytest.mark.skipif(
        importlib.util.find_spec("pgserver") is None, reason="pgserver has no build for this Python"
    ),
]
ROOT = Path(__file__).resolve().parents[1]


def test_start_stop_restart_keeps_data(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    services = ensure_services(data_dir, env={})  # env={}: embedded even if the URLs are set
    try:
        assert services.embedded == ["Postgres", "Redis"]
        with psycopg.connect(services.database_url, autocommit=True) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("cardroom",)
            conn.execute("CREATE TABLE kept (value text)")
            conn.execute("INSERT INTO kept VALUES ('pg survives')")
        with redis.Redis.from_url(services.redis_url) as client:
            assert client.set("kept", "redis survives")
    finally:
        services.stop()

    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(services.database_url, connect_timeout=2).close()

    services = ensure_services(data_dir, env={})
    try:
        with psycopg.connect(services.database_url) as conn:
            assert conn.execute("SELECT value FROM kept").fetchall() == [("pg survives",)]
        with redis.Redis.from_url(services.redis_url) as client:
            assert client.get("kept") == b"redis survives"
    finally:
        services.stop()


def test_external_urls_start_nothing(tmp_path: Path) -> None:
    env = {"DATABASE_URL": "postgresql://db.invalid/x", "REDIS_URL": "redis://cache.invalid/0"}
    services = ensure_services(tmp_path / "unused", env=env)
    assert (services.database_url, services.redis_url) == (env["DATABASE_URL"], env["REDIS_URL"])
    assert services.embedded == []
    assert not (tmp_path / "unused").exists()


def test_adopts_servers_left_by_a_crashed_launcher(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    script = (
        "import sys, time; from embedded.services import ensure_services; "
        "s = ensure_services(sys.argv[1], env={}); print(s.redis_url, flush=True); time.sleep(60)"
    )
    launcher = subprocess.Popen(
        [sys.executable, "-c", script, str(data_dir)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    try:
        assert launcher.stdout is not None
        redis_url = launcher.stdout.readline().strip()
        launcher.kill()  # no cleanup runs: both servers stay up
        launcher.wait()
        services = ensure_services(data_dir, env={})
        assert services.redis_url == redis_url
        services.stop()  # it owns the data dir now, so it stops them
        with pytest.raises(redis.ConnectionError):
            redis.Redis.from_url(redis_url, socket_connect_timeout=1).ping()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(services.database_url, connect_timeout=2).close()
    finally:
        launcher.kill()
        stop_embedded(data_dir)


def test_a_stopped_database_is_a_fast_503_and_the_api_recovers_by_itself(tmp_path: Path) -> None:
    """Stop the embedded Postgres under a running app: requests answer 503 `unavailable` with
    Retry-After within 5 s; start it again and the same app serves them, not restarted."""
    import time
    import uuid

    from api import create_app
    from embedded.postgres import ensure_postgres, stop_postgres
    from events.operations.settings import Settings
    from events.postgres.migrate import apply_migrations

    data_dir = tmp_path / "data"
    services = ensure_services(data_dir, env={})
    app = None
    try:
        apply_migrations(services.database_url)
        settings = Settings(
            database_url=services.database_url,
            redis_url=services.redis_url,
            data_dir=str(data_dir),
            log_level="WARNING",
        )
        app = create_app(settings)
        client = app.test_client()
        body = {"type": "trick_and_snipers", "seats": [{"kind": "open"}] * 3, "options": {}}
        game = client.post("/games", json=body).get_json()["id"]
        assert client.get(f"/games/{game}").status_code == 200

        stop_postgres(data_dir / "postgres")
        for request in (
            lambda: client.get(f"/games/{game}"),
            lambda: client.post("/games", json=body),
        ):
            started = time.monotonic()
            response = request()
            assert time.monotonic() - started < 5.0
            assert response.status_code == 503 and response.get_json()["code"] == "unavailable"
            assert int(response.headers["Retry-After"]) >= 1

        ensure_postgres(data_dir / "postgres", [], owner=False)
        statuses = []
        for _ in range(20):  # a connection broken by the restart fails once, then is replaced
            statuses.append(client.get(f"/games/{game}").status_code)
            if statuses[-1] == 200:
                break
            time.sleep(0.5)
        assert statuses[-1] == 200, statuses
        assert client.get(f"/games/{uuid.uuid4()}").status_code == 404
    finally:
        if app is not None:
            app.extensions["cardroom"].pool.close()
        services.stop()


def test_free_ports_asked_in_a_row_can_all_be_bound():
    port = free_port(span=3)
    with ExitStack() as held:
        for offset in range(3):  # raises if any of them is taken
            sock = held.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            sock.bind(("127.0.0.1", port + offset))
