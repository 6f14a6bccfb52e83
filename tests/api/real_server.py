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

from api.server.pushpin_conf import PushpinSetup, command, pushpin_key
from embedded.front_door import FrontDoor, haproxy_command
from embedded.ports import free_port
from embedded.procs import die_with_parent
from events.operations.settings import Settings
from tests.service import ROOT, start_worker, stop_worker


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
            [*command, *options], cwd=ROOT, env=env, stdout=output, stderr=output,
            preexec_fn=die_with_parent,
        )  # fmt: skip
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
class Front:
    """HAProxy's front door before one gunicorn, Pushpin behind it holding the streams."""

    url: str  # HAProxy's: where clients connect
    pushpin: subprocess.Popen
    setup: PushpinSetup
    haproxy: subprocess.Popen


@dataclass(frozen=True)
class Fronted(Front):
    """A front door, its gunicorn, and a worker that publishes to its Pushpin."""

    api: Served


@contextmanager
def fronting(settings: Settings, api: Served, directory: Path) -> Iterator[Front]:
    """HAProxy and Pushpin as `make run FANOUT=pushpin` puts them before `api`: the stream
    routes to Pushpin, whose requests come back to the API through HAProxy's inner door."""
    key = pushpin_key(settings)
    inner = free_port()
    setup = PushpinSetup(directory, free_port(), f"127.0.0.1:{inner}", free_port(), key)
    door = FrontDoor(free_port(), inner, setup, (api.port,), max_connections=5000)
    pushpin = start_pushpin(setup)
    haproxy = start_haproxy(door)
    try:
        wait_until_up(door.port)
        wait_for_handler(setup.control_port)
        wait_for_stream_route(door.port)
        yield Front(f"http://127.0.0.1:{door.port}", pushpin, setup, haproxy)
    finally:
        stop_pushpin(pushpin)
        stop_haproxy(haproxy)


@contextmanager
def pushpin_serving(settings: Settings, directory: Path, **environment: str) -> Iterator[Fronted]:
    """The app as `make run FANOUT=pushpin` serves it: gunicorn behind HAProxy, Pushpin behind
    HAProxy for the stream routes only, and a worker (`python -m workers`) whose publisher sends
    each committed event to that Pushpin."""
    # Streams Pushpin holds count for minutes after they end (docs/streams.md): its own queue
    # name keeps its counts (and jobs, served by its worker) from every other test's.
    settings = dataclasses.replace(settings, queue_name=f"{settings.queue_name}-{directory.name}")
    with (
        gunicorn_serving(settings, TRUSTED_PROXIES="1", **environment) as api,
        fronting(settings, api, directory) as front,
    ):
        worker = start_worker(settings, PUSHPIN_URLS=front.setup.control_url, **environment)
        try:
            yield Fronted(front.url, front.pushpin, front.setup, front.haproxy, api)
        finally:
            stop_worker(worker)


def start_haproxy(door: FrontDoor) -> subprocess.Popen:
    """HAProxy on docker/haproxy.cfg, as `make run NODES=2` starts it."""
    env = {**os.environ, **door.haproxy_environment()}
    return subprocess.Popen(
        haproxy_command(), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, preexec_fn=die_with_parent,
    )  # fmt: skip


def stop_haproxy(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_for_stream_route(port: int) -> None:
    """Until HAProxy has seen Pushpin healthy: before its first check, the stream routes are
    503."""
    for _ in range(100):
        response = requests.get(f"http://127.0.0.1:{port}/me/stream", timeout=2)
        if response.status_code != 503:
            return
        time.sleep(0.1)
    raise AssertionError("HAProxy did not route the streams to Pushpin")


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
        start_new_session=True, preexec_fn=die_with_parent,
    )  # fmt: skip


def stop_pushpin(process: subprocess.Popen) -> None:
    """Pushpin's runner stops the processes it started (condure, zurl, proxy, handler)."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()
