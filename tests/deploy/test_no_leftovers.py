"""A pytest run killed midway, or `make run NODES=2` stopped with Ctrl-C, leaves no Pushpin,
HAProxy, gunicorn or worker process behind: each is started to die with its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from embedded.front_door import missing_package
from tests.deploy.launcher import ROOT, launched

pytestmark = pytest.mark.skipif(missing_package() is not None, reason=str(missing_package()))
SERVERS = ("haproxy", "pushpin", "condure", "zurl", "gunicorn", "workers")


def alive(pids: list[int]) -> list[int]:
    left = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                left.append(pid)
        except psutil.NoSuchProcess:
            continue
    return left


def wait_for_none_alive(pids: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while (left := alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def servers_in(lines: list[str]) -> list[int]:
    return [int(line.split()[0]) for line in lines if any(name in line for name in SERVERS)]


def test_a_pytest_run_killed_outright_leaves_no_server_behind(tmp_path: Path):
    pids_file = tmp_path / "pids"
    env = {**os.environ, "PROBE_PIDS": str(pids_file)}
    probe = [sys.executable, "-m", "pytest", "tests/deploy/leftovers_probe.py", "-q", "-s"]
    with open(tmp_path / "probe.log", "wb") as log:
        run = subprocess.Popen(
            [*probe, "-p", "no:cacheprovider"], cwd=ROOT, env=env, stdout=log, stderr=log
        )
    try:
        deadline = time.monotonic() + 180
        while not pids_file.exists() and time.monotonic() < deadline:
            assert run.poll() is None, (tmp_path / "probe.log").read_text()[-3000:]
            time.sleep(0.5)
        lines = pids_file.read_text().splitlines()
        # Given a run holding HAProxy, Pushpin, API nodes and workers
        servers = servers_in(lines)
        assert {"haproxy", "pushpin", "gunicorn"} <= {
            name for name in SERVERS for line in lines if name in line
        }
        # When it is killed outright, as a CI job's timeout or a closed terminal kills it
        run.send_signal(signal.SIGKILL)
        run.wait()
        # Then every server it started is gone soon after
        assert wait_for_none_alive(servers, timeout=45) == []
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def test_ctrl_c_stops_every_process_of_nodes_2(private_database_url, redis_url, tmp_path):
    with launched(private_database_url, redis_url, tmp_path / "data") as run:
        below = [p.pid for p in psutil.Process(run.proc.pid).children(recursive=True)]
        assert len(below) >= 8  # two nodes and their workers, Pushpin's, HAProxy, a worker
        run.proc.send_signal(signal.SIGINT)
        assert run.proc.wait(timeout=45) == 0
        assert wait_for_none_alive(below, timeout=10) == []
