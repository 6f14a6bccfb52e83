"""What the soak watches on the server while it plays: the outbox (through /readyz: rows not yet
done and the age of the oldest) and the RQ queue's depth (Redis), and their summaries."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

import redis
import requests
from rq import Queue


@dataclass
class Sample:
    at: float  # time.time()
    outbox_lag: float | None  # s since the oldest unfinished outbox row was written
    outbox_rows: int | None  # unfinished outbox rows
    rq_depth: int | None  # jobs waiting on the RQ queue
    streams_open: int


class Watcher:
    def __init__(self, url: str, redis_url: str | None, queue: str) -> None:
        self.url = url.rstrip("/")
        self.session = requests.Session()
        self.queue = Queue(queue, connection=redis.Redis.from_url(redis_url)) if redis_url else None
        self.samples: list[Sample] = []

    def sample(self, streams_open: int) -> Sample:
        lag = rows = depth = None
        try:
            ready = self.session.get(f"{self.url}/readyz", timeout=5).json()
            lag, rows = ready["outbox"]["lag_seconds"], ready["outbox"]["unfinished"]
        except (requests.RequestException, ValueError, KeyError):
            pass
        if self.queue is not None:
            try:
                depth = self.queue.count
            except redis.RedisError:
                pass
        taken = Sample(time.time(), lag, rows, depth, streams_open)
        self.samples.append(taken)
        return taken

    def close(self) -> None:
        self.session.close()


# --- summaries -----------------------------------------------------------------------------


def spread(values: Sequence[float]) -> str:
    """'min/median/max' of what was read (n/a when nothing was)."""
    if not values:
        return "n/a"
    return "/".join(f"{v:g}" for v in (min(values), statistics.median(values), max(values)))


def per_minute(samples: Sequence[Sample], start: float, end: float) -> list[dict[str, str]]:
    """For each minute of the run (the last may be partial): min/median/max of the outbox's
    rows and lag and of the RQ queue's depth."""
    rows: list[dict[str, str]] = []
    minute = 0
    while start + 60 * minute < end - 1:  # not the instant after the deadline
        low, high = start + 60 * minute, min(end, start + 60 * (minute + 1))
        inside = [s for s in samples if low <= s.at < high]
        rows.append({
            "minute": str(minute + 1),
            "outbox_rows": spread([s.outbox_rows for s in inside if s.outbox_rows is not None]),
            "outbox_lag_s": spread([round(s.outbox_lag, 2) for s in inside
                                    if s.outbox_lag is not None]),
            "rq_depth": spread([s.rq_depth for s in inside if s.rq_depth is not None]),
        })  # fmt: skip
        minute += 1
    return rows
