"""The service a benchmark runs against, started the way `make run` does, and servers beside it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from embedded.ports import free_port
from embedded.procs import terminate

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 120.0
STOP_TIMEOUT = 30.0


@dataclass
class Service:
    url: str
    database_url: str | None
    data_dir: str | None  # the embedded servers' dir, when the bench started them
    log_path: str | None
    pid: int | None = None  # the launcher's, when the bench started it

    @property
    def redis_url(self) -> str | None:
        """The environment's REDIS_URL, or the embedded Redis the service started."""
        embedded = embedded_redis_url(self.data_dir) if self.data_dir else None
        return os.environ.get("REDIS_URL") or embedded


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]


@contextmanager
def started_service(settings: dict[str, str] | None = None) -> Iterator[Service]:
    """`python -m embedded.run` on a free port with a throwaway DATA_DIR (or the DATABASE_URL /
    REDIS_URL of the environment), its dir removed on exit. A bench drives many games from one
    address, so rate limits are off unless `settings` say otherwise."""
    tmp = tempfile.mkdtemp(prefix="cardroom-bench-")
    port = free_port(span=6)  # NODES=2 takes PORT to PORT + 5 (embedded/front_door.py)
    env = dict(os.environ, DATA_DIR=tmp, PORT=str(port), PYTHONUNBUFFERED="1")
    env.setdefault("RATE_LIMITS", "off")
    env.update(settings or {})
    env.setdefault("RQ_QUEUE", f"bench-{os.getpid()}")  # never share a queue with others
    log_path = os.path.join(tmp, "service.log")
    try:
        with serving([sys.executable, "-m", "embedded.run"], port, env, log_path=log_path) as run:
            database_url = os.environ.get("DATABASE_URL") or embedded_database_url(tmp)
            yield Service(run.url, database_url, tmp, log_path, run.process.pid)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _tail(path: str, lines: int = 20) -> str:
    text = Path(path).read_text(errors="replace").splitlines()
    return "\n".join(text[-lines:])


def embedded_database_url(data_dir: str) -> str | None:
    """The URL of the embedded Postgres running in data_dir, or None if none runs there. Only
    attaches: the launcher that owns data_dir keeps the server (we never take its lock)."""
    if not (Path(data_dir) / "postgres" / "postmaster.pid").exists():
        return None
    from embedded.services import ensure_services

    # REDIS_URL set to anything keeps ensure_services from touching Redis.
    return ensure_services(data_dir, env={"REDIS_URL": "redis://unused"}).database_url


def embedded_redis_url(data_dir: str) -> str | None:
    """The URL of the embedded Redis running in data_dir (attaching only, like the above)."""
    if not (Path(data_dir) / "redis").exists():
        return None
    from embedded.services import ensure_services

    return ensure_services(data_dir, env={"DATABASE_URL": "postgresql://unused"}).redis_url


@contextmanager
def second_api(service: Service, settings: dict[str, str], repo: Path = REPO) -> Iterator[str]:
    """Another API (gunicorn, as make run starts it) beside `service`, on its database, Redis,
    worker and signing key, with other `settings` or the code of another checkout (`repo`): an
    A/B pair in one run."""
    from embedded.run import gunicorn_command
    from events.operations.settings import load_settings

    port = free_port()
    env = dict(os.environ, PORT=str(port), PYTHONUNBUFFERED="1", **settings)
    if repo != REPO:  # its modules before this checkout's, which the venv installs (editable)
        env["PYTHONPATH"] = str(repo)
    if service.data_dir:
        env["DATA_DIR"] = service.data_dir
        env.setdefault("REDIS_URL", service.redis_url or "")
    env.setdefault("DATABASE_URL", service.database_url or "")
    command = gunicorn_command(load_settings(env).port)
    with serving(command, port, env, cwd=repo) as server:
        yield server.url


@contextmanager
def serving(
    command: list[str],
    port: int,
    env: dict[str, str],
    cwd: Path = REPO,
    log_path: str | None = None,
    ready_path: str = "/readyz",
) -> Iterator[Server]:
    """A server (`command`, listening on `port`) in a session of its own (a Ctrl-C of the bench
    reaches it only as SIGTERM on exit), yielded once it answers 200 at `ready_path`. Its output
    goes to `log_path`."""
    log_path = log_path or os.devnull
    log = open(log_path, "wb")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + READY_TIMEOUT
    try:
        while not _ready(f"{url}{ready_path}"):
            if proc.poll() is not None:
                raise SystemExit(f"{command} exited ({proc.returncode}): {_tail(log_path)}")
            if time.monotonic() > deadline:
                raise SystemExit(f"not ready within {READY_TIMEOUT:.0f} s: {_tail(log_path)}")
            time.sleep(0.3)
        yield Server(url, proc)
    finally:
        terminate([proc], STOP_TIMEOUT)  # embedded.run stops gunicorn, the worker and its servers
        log.close()


def _ready(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


PROBLEM_MARKS = (" WARNING ", " ERROR ", " CRITICAL ", "[WARNING]", "[ERROR]", "[CRITICAL]")


def log_findings(log_path: str | None, keep: str | None) -> dict[str, Any]:
    """Warnings, errors and tracebacks in the started service's log (copied to `keep`)."""
    if not log_path or not Path(log_path).exists():
        return {}
    if keep:
        shutil.copyfile(log_path, keep)
    lines = Path(log_path).read_text(errors="replace").splitlines()
    problems = [i for i, line in enumerate(lines) if any(m in line for m in PROBLEM_MARKS)]
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    return {
        "service_log_lines": len(lines),
        "service_log_problems": len(problems),
        "service_log_tracebacks": len(tracebacks),
        "service_log_first_problems": [lines[i] for i in problems[:5]],
        "service_log_first_traceback": traceback_at(lines, tracebacks[0]) if tracebacks else "",
    }


def traceback_at(lines: list[str], first: int) -> str:
    """The traceback starting at line `first`, up to its exception line, with the line
    before it (usually the log message that printed it)."""
    end = first + 1
    while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
        end += 1
    return "\n".join(lines[max(0, first - 1) : end + 1])
