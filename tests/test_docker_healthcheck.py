"""docker/healthcheck.py, the containers' health checks, run as Docker runs them (a separate
process beside the one it checks) against a real gunicorn and a real `python -m workers`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from rq import Queue, Worker

from embedded.ports import free_port
from events.operations.settings import Settings
from tests.api.real_server import gunicorn_serving

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "docker" / "healthcheck.py"
NOWHERE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture()
def settings(database_url, redis_url, tmp_path) -> Settings:
    """This test's own queue, so the workers of other tests are none of its business."""
    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        queue_name=f"healthcheck-{uuid.uuid4().hex[:8]}",
        audit_key_file=str(tmp_path / "audit-key.pem"),
        log_level="WARNING",
    )


def environment(settings: Settings, **overrides: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "RQ_QUEUE": settings.queue_name,
        "AUDIT_KEY_FILE": settings.audit_key_file,
        "LOG_LEVEL": "WARNING",
        **overrides,
    }


def check(kind: str, settings: Settings, **overrides: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, SCRIPT, kind],
        cwd=ROOT,
        env=environment(settings, **overrides),
        capture_output=True,
        text=True,
        timeout=30,
    )


def until_healthy(kind: str, settings: Settings, **overrides: str) -> None:
    deadline = time.monotonic() + 30
    while (done := check(kind, settings, **overrides)).returncode != 0:
        assert time.monotonic() < deadline, done.stdout + done.stderr
        time.sleep(0.3)


def test_the_api_is_healthy_when_ready(settings):
    with gunicorn_serving(settings) as served:
        until_healthy("api", settings, PORT=str(served.port))


def test_the_api_is_unhealthy_when_it_cannot_reach_redis(settings):
    """Up (it answers /healthz) but not ready: /readyz is 503, and so the check fails."""
    with gunicorn_serving(settings, REDIS_URL=NOWHERE) as served:
        done = check("api", settings, PORT=str(served.port), REDIS_URL=NOWHERE)
    assert done.returncode == 1
    assert "503" in done.stdout and "redis" in done.stdout


def test_the_api_is_unhealthy_when_nothing_listens(settings):
    done = check("api", settings, PORT=str(free_port()))
    assert done.returncode == 1 and "refused" in done.stdout


def start_worker(settings: Settings) -> subprocess.Popen:
    command = [sys.executable, "-m", "workers", "--jobs-only"]
    return subprocess.Popen(command, cwd=ROOT, env=environment(settings))


def test_a_worker_is_healthy_while_it_runs_and_not_once_stopped(settings):
    worker = start_worker(settings)
    try:
        until_healthy("worker", settings)
    finally:
        worker.terminate()
        assert worker.wait(timeout=15) == 0
    done = check("worker", settings)  # a clean stop takes its entry out of the registry
    assert done.returncode == 1 and "no live worker" in done.stdout


def test_a_killed_workers_leftover_entry_is_not_health(settings):
    """SIGKILL leaves the entry in Redis for minutes; its pid is gone, so it counts for nothing."""
    connection = redis.Redis.from_url(settings.redis_url)
    queue = Queue(settings.queue_name, connection=connection)
    worker = start_worker(settings)
    try:
        until_healthy("worker", settings)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=15)
    (leftover,) = Worker.all(queue=queue)
    try:
        assert leftover.pid == worker.pid
        done = check("worker", settings)
        assert done.returncode == 1 and "no live worker" in done.stdout
    finally:
        leftover.register_death()


def registered(settings: Settings, hostname: str) -> Worker:
    """An entry for this test process (alive, started before it), as a worker registers."""
    connection = redis.Redis.from_url(settings.redis_url)
    worker = Worker([Queue(settings.queue_name, connection=connection)], connection=connection)
    worker.hostname = hostname
    worker.register_birth()
    return worker


def test_only_this_hosts_worker_counts(settings):
    ours = registered(settings, socket.gethostname())
    try:
        assert check("worker", settings).returncode == 0
    finally:
        ours.register_death()
    elsewhere = registered(settings, "another-container")
    try:
        done = check("worker", settings)
        assert done.returncode == 1 and socket.gethostname() in done.stdout
    finally:
        elsewhere.register_death()


def test_an_entry_older_than_its_process_is_not_health(settings):
    """A restarted container keeps its hostname and its worker's pid (1): the entry of the
    worker before the restart must not pass for the new one."""
    worker = registered(settings, socket.gethostname())
    try:
        worker.connection.hset(worker.key, "birth", "2000-01-01T00:00:00.000000Z")
        assert check("worker", settings).returncode == 1
    finally:
        worker.register_death()


def test_a_worker_is_unhealthy_when_redis_is_unreachable(settings):
    done = check("worker", settings, REDIS_URL=NOWHERE)
    assert done.returncode == 1 and "Redis" in done.stdout
