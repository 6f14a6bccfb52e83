"""Every Prometheus metric of the service, written by the API processes and the workers alike.

With PROMETHEUS_MULTIPROC_DIR set (make run, Docker and gunicorn always set it), each process
writes its values to files of its own in that directory and GET /metrics adds up every
process's files: both gunicorn workers and the RQ workers' jobs. Without it (the Flask test
client), each process counts in its own memory. Names and meanings: docs/operations.md.
"""

from __future__ import annotations

import glob
import os
import re
import socket

from prometheus_client import Counter, Histogram, disable_created_metrics, values

DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
_HOST = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname())


# prometheus_client asks for this process's name at every increment, to notice a fork; the
# name changes only at a fork, so it is kept until one.
_own_id: str | None = None


def process_id(pid: int | None = None) -> str:
    """Names a process's files. The host too: containers sharing the directory (Docker) each
    have their own pid 1. No `_`: prometheus_client splits file names on it."""
    if pid is not None:
        return f"{_HOST}-{pid}"
    global _own_id
    if _own_id is None:
        _own_id = f"{_HOST}-{os.getpid()}"
    return _own_id


def _forget_own_id() -> None:
    global _own_id
    _own_id = None


os.register_at_fork(after_in_child=_forget_own_id)


def multiprocess() -> bool:
    return bool(os.environ.get(DIRECTORY))


def fresh_directory(path: str) -> str:
    """Makes the directory the processes about to start will share, or empties it of metric
    files (`*.db`, nothing else): counts of a previous run would be added to theirs."""
    os.makedirs(path, exist_ok=True)
    for stale in glob.glob(os.path.join(path, "*.db")):
        os.remove(stale)
    return path


if multiprocess():  # before any metric below is made: they pick their value class then
    os.makedirs(os.environ[DIRECTORY], exist_ok=True)
    values.ValueClass = values.MultiProcessValue(process_id)

disable_created_metrics()  # no `_created` series: Prometheus finds resets by itself

# Fast answers are most of them: finer buckets below 25 ms than the default.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
JOB_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)

REQUEST_SECONDS = Histogram(
    "cardroom_http_request_duration_seconds",
    "Time to a response's headers (a stream's: until it opens), by route template and status.",
    ["method", "route", "status"],
    buckets=LATENCY_BUCKETS,
)
ACTIONS = Counter(
    "cardroom_actions", "Actions accepted from clients (POST /games/{id}/actions).", ["game_type"]
)
ACTION_EVENTS = Counter(
    "cardroom_action_events",
    "Events appended by clients' actions (deals and completed tricks they cause included).",
    ["game_type"],
)
JOB_SECONDS = Histogram(
    "cardroom_job_latency_seconds",
    "From the commit that made the work due (its outbox row) to the job's commit.",
    ["kind"],
    buckets=JOB_BUCKETS,
)
JOBS = Counter("cardroom_jobs", "Jobs run by the workers, by outcome.", ["kind", "outcome"])
JOB_FAILURES = Counter(
    "cardroom_job_failures", "Jobs that raised (RQ keeps them in its failed registry).", ["kind"]
)
RATE_LIMITED = Counter(
    "cardroom_rate_limited", "Requests refused 429 by a rate limit, by limit.", ["limit"]
)


def job_kind(outbox_kind: str) -> str:
    """ "bot" for any seat's turn (bot-0, bot-3...), else the automatic work's own name."""
    return "bot" if outbox_kind.startswith("bot-") else outbox_kind
