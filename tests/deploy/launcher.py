"""`python -m embedded.run` with NODES=2, as `make run NODES=2` starts it: HAProxy on PORT, Pushpin
behind it, two API nodes and a worker, all real processes, on this test module's database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import requests

from embedded.ports import free_port
from embedded.procs import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
PORTS = 6  # HAProxy's two, Pushpin's two, two nodes (embedded/front_door.py)


@dataclass(frozen=True)
class Launched:
    proc: subprocess.Popen
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def node_ports(self) -> tuple[int, int]:
        return self.port + 4, self.port + 5

    @property
    def pushpin_port(self) -> int:
        return self.port + 2

    def child(self, marker: str) -> psutil.Process | None:
        """The launcher's child whose command line holds marker."""
        try:
            children = psutil.Process(self.proc.pid).children()
        except psutil.NoSuchProcess:
            return None
        for child in children:
            try:
                if marker in " ".join(child.cmdline()):
                    return child
            except psutil.Error:
                continue
        return None

    def node(self, index: int) -> psutil.Process | None:
        return self.child(f"127.0.0.1:{self.node_ports[index]}")

    def pushpin(self) -> psutil.Process | None:
        return self.child("pushpin.conf")


@contextmanager
def launched(
    database_url: str, redis_url: str, data_dir: Path, **environment: str
) -> Iterator[Launched]:
    port = free_port(span=PORTS)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "RQ_QUEUE": f"front-door-{uuid.uuid4().hex[:8]}",
        "PORT": str(port),
        "NODES": "2",
        "DATA_DIR": str(data_dir),
        "LOG_LEVEL": "WARNING",
        "WEB_WORKERS": "1",
        "RATE_LIMITS": "off",
        **environment,
    }
    log = data_dir.parent / f"{data_dir.name}-launcher.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "embedded.run"], cwd=ROOT, env=env, stdout=out, stderr=out,
            preexec_fn=die_with_parent,
        )  # fmt: skip
    run = Launched(proc, port, log)
    try:
        wait_until_serving(run)
        yield run
    finally:
        stop(proc)


def wait_until_serving(run: Launched, timeout: float = 90.0) -> None:
    """Until the launcher says it runs, every node answers /readyz through the front door's
    checks, and the stream routes reach Pushpin."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if run.proc.poll() is not None:
            raise AssertionError(f"the launcher exited: {run.log.read_text()[-2000:]}")
        if "Cardroom is running" in run.log.read_text(errors="replace") and all(
            answers(f"http://127.0.0.1:{port}/readyz") for port in run.node_ports
        ):
            if stream_route_ready(run.url):
                time.sleep(2.5)  # two good checks of each node by HAProxy (rise 2, 1 s apart)
                return
        time.sleep(0.2)
    raise AssertionError(f"NODES=2 did not come up: {run.log.read_text()[-2000:]}")


def answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def stream_route_ready(url: str) -> bool:
    try:  # 401 from the API, through Pushpin; 503 while HAProxy has not seen Pushpin up
        return requests.get(f"{url}/me/stream", timeout=2).status_code == 401
    except requests.RequestException:
        return False


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        for child in psutil.Process(proc.pid).children(recursive=True):
            child.kill()
        proc.kill()
        proc.wait()
