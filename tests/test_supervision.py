"""`python -m embedded.run` (behind `make run`) starts again a worker or API process that dies,
after a delay that grows while the child keeps dying at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest
import requests

from embedded.ports import free_port
from embedded.procs import Supervised

ROOT = Path(__file__).resolve().parents[1]
EXIT_3 = [sys.executable, "-c", "import sys; sys.exit(3)"]


def wait_for_death(child: Supervised, now: float) -> tuple[int, float]:
    assert child.proc is not None
    child.proc.wait(timeout=10)
    death = child.died(now)
    assert death is not None
    return death


def test_a_child_that_keeps_dying_at_start_waits_longer_each_time_up_to_the_cap() -> None:
    child = Supervised("crasher", EXIT_3, os.environ, first_delay=0.5, max_delay=3.0)
    child.start(now=0.0)
    delays = []
    for attempt in range(5):
        status, delay = wait_for_death(child, now=attempt + 0.1)
        assert status == 3
        assert not child.due(now=attempt + 0.1 + delay - 0.01)
        assert child.due(now=attempt + 0.1 + delay)
        delays.append(delay)
        child.restart(now=attempt + 0.2)
    assert delays == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert child.restarts == 5


def test_a_child_that_stayed_up_a_while_is_restarted_after_the_first_delay_again() -> None:
    child = Supervised("crasher", EXIT_3, os.environ, first_delay=0.5, stable_seconds=30.0)
    child.start(now=0.0)
    assert wait_for_death(child, now=0.1)[1] == 0.5
    child.restart(now=1.0)
    assert wait_for_death(child, now=1.1)[1] == 1.0
    child.restart(now=3.0)
    assert wait_for_death(child, now=40.0)[1] == 0.5  # up from 3 s to 40 s: a stable run


@pytest.fixture()
def launcher(private_database_url: str, redis_url: str, tmp_path: Path) -> Iterator[dict]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": private_database_url,
        "REDIS_URL": redis_url,
        "RQ_QUEUE": f"supervision-{uuid.uuid4().hex[:8]}",
        "PORT": str(port),
        "DATA_DIR": str(tmp_path / "data"),
        "LOG_LEVEL": "WARNING",
        "WEB_WORKERS": "1",
        "RATE_LIMITS": "off",
    }
    log = tmp_path / "launcher.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "embedded.run"], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        yield {"proc": proc, "url": f"http://127.0.0.1:{port}", "log": log}
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                for child in psutil.Process(proc.pid).children(recursive=True):
                    child.kill()
                proc.kill()
                proc.wait()


def child_pid(launcher_pid: int, marker: str) -> int | None:
    """The pid of the launcher's child whose command line holds marker."""
    try:
        children = psutil.Process(launcher_pid).children()
    except psutil.NoSuchProcess:
        return None
    for child in children:
        try:
            if marker in child.cmdline():
                return child.pid
        except psutil.Error:
            continue
    return None


def eventually(check: Callable[[], object], timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except requests.RequestException:
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_make_run_restarts_a_killed_worker_and_a_killed_api_and_logs_each_restart(launcher):
    proc, url = launcher["proc"], launcher["url"]
    eventually(lambda: requests.get(f"{url}/healthz", timeout=2).ok, 60, "the API")
    worker = eventually(lambda: child_pid(proc.pid, "workers"), 10, "the worker")
    api = child_pid(proc.pid, "gunicorn")

    os.kill(worker, signal.SIGKILL)
    new_worker = eventually(
        lambda: (pid := child_pid(proc.pid, "workers")) != worker and pid, 10, "a new worker"
    )
    bots = [{"kind": "bot", "level": "basic"}] * 3
    body = {"type": "trick_and_snipers", "seats": bots, "options": {}}
    game = requests.post(f"{url}/games", json=body, timeout=10).json()["id"]
    eventually(
        lambda: requests.get(f"{url}/games/{game}", timeout=5).json()["status"] == "finished",
        60,
        "the bots to finish the game",
    )

    os.kill(api, signal.SIGKILL)
    eventually(lambda: child_pid(proc.pid, "gunicorn") not in (None, api), 10, "a new API")
    eventually(lambda: requests.get(f"{url}/games/{game}", timeout=2).ok, 30, "the API again")
    assert proc.poll() is None
    assert child_pid(proc.pid, "workers") == new_worker  # the worker was left alone

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    log = launcher["log"].read_text()
    assert f"worker 1 (pid {worker}) exited with status 137; restarting it in 0.5 s" in log
    assert "(restart 1)" in log
    assert f"API (gunicorn) (pid {api}) exited with status 137" in log
    assert "API (gunicorn) is serving again" in log
    assert "stopping..." in log
