"""Container health checks: `python docker/healthcheck.py api|worker`, exit status 0 when healthy.

api: GET /readyz on this container's PORT, so healthy means the API answers *and* reaches
Postgres and Redis (/healthz would only say that gunicorn is up).

worker: this container's `python -m workers` is in RQ's worker registry for our queue. RQ keeps
a worker's entry alive only while the worker renews it (between jobs at least every worker_ttl,
and a job's timeout plus a minute while it works) and deletes it when the worker stops, so an
entry proves that the worker loop runs, and reading it proves that Redis answers. The entry
must be this container's process: same hostname, the pid alive here, and registered after that
process started (a restarted container keeps its hostname, and PID 1, while the entry of the
worker it replaced outlives it). Cheaper than an end-to-end job and leaves nothing in Redis.
"""

from __future__ import annotations

import os
import socket
import sys
import urllib.error
import urllib.request
from datetime import UTC
from pathlib import Path

from events.operations.settings import load_settings

TIMEOUT = 4.0  # seconds; under the compose file's healthcheck timeout


def check_api() -> str | None:
    """None when ready, else why not."""
    url = f"http://127.0.0.1:{load_settings().port}/readyz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT):
            return None
    except urllib.error.HTTPError as error:  # 503: Postgres or Redis unavailable
        return f"{url}: {error.code} {error.read(500).decode(errors='replace')}"
    except OSError as error:
        return f"{url}: {error}"


def started_at(pid: int) -> float:
    """When process pid started (seconds since the epoch), from /proc; OSError if it's gone."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime, after the (comm)
    boot = next(
        int(line.split()[1])
        for line in Path("/proc/stat").read_text().splitlines()
        if line.startswith("btime ")
    )
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def is_this_containers(worker) -> bool:
    if worker.hostname != socket.gethostname() or not worker.pid or worker.birth_date is None:
        return False
    try:
        start = started_at(worker.pid)
    except (OSError, ValueError, IndexError, StopIteration):
        return False
    birth = worker.birth_date.replace(tzinfo=UTC).timestamp()
    return birth >= start - 2  # /proc/stat's boot time is in whole seconds


def check_worker() -> str | None:
    """None when a worker of this container is registered for our queue, else why not."""
    import redis
    from rq import Queue, Worker

    settings = load_settings()
    connection = redis.Redis.from_url(
        settings.redis_url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
    )
    try:
        registered = Worker.all(queue=Queue(settings.queue_name, connection=connection))
    except redis.RedisError as error:
        return f"Redis: {error}"
    if any(is_this_containers(worker) for worker in registered):
        return None
    here = socket.gethostname()
    return f"no live worker of host {here} registered for queue {settings.queue_name!r}"


CHECKS = {"api": check_api, "worker": check_worker}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in CHECKS:
        print(f"usage: healthcheck.py {'|'.join(CHECKS)}", file=sys.stderr)
        return 2
    problem = CHECKS[argv[0]]()
    if problem is None:
        return 0
    print(f"unhealthy: {problem}"[:1000])  # docker inspect keeps this in the health log
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
