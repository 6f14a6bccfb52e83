"""The app served by a real gunicorn, as `make run` and the Dockerfile serve it: for what only a
real server shows (its headers, how it reads bodies off the socket, how it holds streams)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

from embedded.ports import free_port
from embedded.pushpin import PushpinSetup, command, pushpin_key
from events.operations.settings import Settings
from tests.api.conftest import ROOT


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
    """A gunicorn as `make run` starts it (api/server/gunicorn_conf.py: gevent workers) on this
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
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        "python:api.server.gunicorn_conf",
        "api.server.wsgi:app",
    ]
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
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):  # not up, or still booting
            time.sleep(0.1)
    raise AssertionError("gunicorn did not come up")


@dataclass(frozen=True)
class Fronted:
    """gunicorn with Pushpin in front, and a worker that publishes to it."""

    url: str  # Pushpin's: where clients connect
    api: Served
    pushpin: subprocess.Popen
    setup: PushpinSetup


@contextmanager
def pushpin_serving(settings: Settings, directory: Path, **environment: str) -> Iterator[Fronted]:
    """The app as `make run` serves it when Pushpin is installed: gunicorn behind Pushpin, and
    a worker (`python -m workers`) whose publisher sends each committed event to that Pushpin."""
    from tests.api.conftest import start_worker, stop_worker

    # Streams Pushpin holds count for minutes after they end (docs/streams.md): its own queue
    # name keeps its counts (and jobs, served by its worker) from every other test's.
    settings = dataclasses.replace(settings, queue_name=f"{settings.queue_name}-{directory.name}")
    with gunicorn_serving(settings, TRUSTED_PROXIES="1", **environment) as api:
        key = pushpin_key(settings)
        setup = PushpinSetup(directory, free_port(), f"127.0.0.1:{api.port}", free_port(), key)
        front = start_pushpin(setup)
        worker = start_worker(settings, PUSHPIN_URLS=setup.control_url, **environment)
        try:
            wait_until_up(setup.port)
            wait_for_handler(setup.control_port)
            yield Fronted(f"http://127.0.0.1:{setup.port}", api, front, setup)
        finally:
            stop_worker(worker)
            stop_pushpin(front)


def wait_for_handler(port: int) -> None:
    """Until Pushpin's handler answers on its control port, then a moment more: the client
    port comes up before the handler, and a stream held meanwhile is cut after its first part
    ('Accept service unavailable'). The proxy reaches the handler over ZeroMQ, which connects
    in the background once the handler is up."""
    for _ in range(150):
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=2)
            time.sleep(0.5)
            return
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.1)
    raise AssertionError("Pushpin's handler did not come up")


def start_pushpin(setup: PushpinSetup) -> subprocess.Popen:
    return subprocess.Popen(
        command(setup), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip


def stop_pushpin(process: subprocess.Popen) -> None:
    """Pushpin's runner stops the processes it started (condure, zurl, proxy, handler)."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()
