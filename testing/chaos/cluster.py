"""The service's processes, as `make run` and Docker start them, on a scenario's own database
and Redis: gunicorn masters (api/server/gunicorn_conf.py) and `python -m workers` processes, each in
its own process group so a kill takes the whole of it, and all of them stopped at the end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import requests

from embedded.ports import free_port
from testing.chaos.servers import RedisServer

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Api:
    proc: subprocess.Popen[bytes]
    url: str

    def worker_pids(self) -> set[int]:
        """The gunicorn workers of this master: a crashed one would come back with a new pid."""
        try:
            return {child.pid for child in psutil.Process(self.proc.pid).children()}
        except psutil.NoSuchProcess:
            return set()


@dataclass
class Cluster:
    database_url: str
    redis_url: str
    workdir: Path
    redis_server: RedisServer | None = None  # the scenario's own, which it may restart
    apis: list[Api] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    cleanups: list[Callable[[], None]] = field(default_factory=list)  # run first by stop()
    _all: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "RQ_QUEUE": "chaos",
            "AUDIT_KEY_FILE": str(self.workdir / "audit-key.pem"),
            "PROMETHEUS_MULTIPROC_DIR": str(self.workdir / "metrics"),
            "SWEEP_AFTER_SECONDS": "2",
            "RATE_LIMITS": "off",
            "WEB_WORKERS": "1",
            "DB_POOL_SIZE": "6",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }

    def _spawn(self, command: list[str], log_name: str) -> subprocess.Popen[bytes]:
        (self.workdir / "metrics").mkdir(parents=True, exist_ok=True)
        with open(self.workdir / log_name, "ab") as log:
            proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        self._all.append(proc)
        return proc

    def start_api(self) -> Api:
        port = free_port()
        command = [sys.executable, "-m", "gunicorn", "-c", "python:api.server.gunicorn_conf"]
        command += ["api.server.wsgi:app", "-b", f"127.0.0.1:{port}"]
        api = Api(self._spawn(command, f"api-{len(self.apis) + 1}.log"), f"http://127.0.0.1:{port}")
        self.apis.append(api)
        wait_until_serving(api)
        return api

    def start_worker(self) -> subprocess.Popen[bytes]:
        proc = self._spawn([sys.executable, "-m", "workers"], f"worker-{len(self.workers) + 1}.log")
        self.workers.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """kill -9 the process and its group (a gunicorn master's workers too)."""
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(10)

    def stop(self) -> None:
        for cleanup in self.cleanups:
            cleanup()
        for proc in self._all:
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 10
        for proc in self._all:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            self.kill(proc)

    def log_tails(self, lines: int = 15) -> str:
        out = []
        for path in sorted(self.workdir.glob("*.log")):
            text = path.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {path.name}\n" + "\n".join(text))
        return "\n".join(out)


def wait_until_serving(api: Api, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if api.proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {api.proc.returncode}")
        try:
            if requests.get(f"{api.url}/healthz", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"gunicorn did not serve at {api.url}")
