"""The embedded Postgres and Redis behind `make run` start, keep their data, and restart."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import redis

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
