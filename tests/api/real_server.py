"""The app served by a real gunicorn, as `make run` and the Dockerfile serve it: for what only a
real server shows (its headers, how it reads bodies off the socket, how it holds streams)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

from events.settings import Settings
from tests.api.conftest import ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Served:
    host: str
    port: int
    process: subprocess.Popen

    @property
    def address(self) -> tuple[str, int]:
        return self.host, self.port


@contextmanager
def gunicorn_serving(
    settings: Settings, *options: str, log: Path | None = None, **environment: str
) -> Iterator[Served]:
    """A gunicorn as `make run` starts it (api/gunicorn_conf.py: gevent workers) on this
    session's database and Redis, up and answering; `environment` adds settings (e.g.
    WEB_WORKERS="1"), `options` gunicorn flags; its output goes to `log` if given."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "REDIS_URL": settings.redis_url,
        "RQ_QUEUE": settings.queue_name,
        "AUDIT_KEY_FILE": settings.audit_key_file,
        "LOG_LEVEL": "WARNING",
        **environment,
    }
    command = [sys.executable, "-m", "gunicorn", "-c", "python:api.gunicorn_conf", "api.wsgi:app"]
    command += ["-b", f"127.0.0.1:{port}"]
    with open(log or os.devnull, "wb") as output:
        server = subprocess.Popen(
            [*command, *options], cwd=ROOT, env=env, stdout=output, stderr=output
        )
    try:
        wait_until_up(port)
        yield Served("127.0.0.1", port, server)
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=15)


def wait_until_up(port: int) -> None:
    for _ in range(150):
        try:
            requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return
        except (requests.ConnectionError, requests.Timeout):  # not up, or still booting
            time.sleep(0.1)
    raise AssertionError("gunicorn did not come up")
