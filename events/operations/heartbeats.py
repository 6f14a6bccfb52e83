"""Workers' heartbeats in Redis, read by GET /readyz and /metrics.

One sorted set per queue: a member per worker process ("full:host:pid" for a worker that also
runs the relay, sweeper and timers, "jobs:host:pid" for a jobs-only one), scored with the
Redis server's clock at its last beat, so the API and the workers need not agree on the time.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import cast

import redis

BEAT_SECONDS = 5.0
SILENT_AFTER_SECONDS = 30.0  # no beat for this long: the worker counts as gone
FORGET_AFTER_SECONDS = 3600.0


def key(queue_name: str) -> str:
    return f"{queue_name}-heartbeats"


def member(full: bool) -> str:
    return f"{'full' if full else 'jobs'}:{socket.gethostname()}:{os.getpid()}"


def _server_time(connection: redis.Redis) -> float:
    # redis-py types every answer as "an awaitable, or anything" (the same methods serve its
    # asyncio client); this client's TIME is (seconds, microseconds).
    seconds, micros = cast(tuple[int, int], connection.time())
    return seconds + micros / 1e6


def beat(connection: redis.Redis, queue_name: str, who: str) -> None:
    now = _server_time(connection)
    pipe = connection.pipeline(transaction=False)
    pipe.zadd(key(queue_name), {who: now})
    pipe.zremrangebyscore(key(queue_name), 0, now - FORGET_AFTER_SECONDS)
    pipe.expire(key(queue_name), int(FORGET_AFTER_SECONDS))
    pipe.execute()


def stop(connection: redis.Redis, queue_name: str, who: str) -> None:
    connection.zrem(key(queue_name), who)


@dataclass(frozen=True)
class Beats:
    full_seconds: float | None  # since the newest beat of a full worker; None: never
    alive: int  # workers that beat within SILENT_AFTER_SECONDS
    alive_full: int

    @property
    def relaying(self) -> bool:
        """A full worker beat lately: the outbox is relayed and stuck work swept."""
        return self.alive_full > 0


def read(connection: redis.Redis, queue_name: str) -> Beats:
    pipe = connection.pipeline(transaction=False)
    pipe.time()
    pipe.zrange(key(queue_name), 0, -1, withscores=True)
    (seconds, micros), members = pipe.execute()
    now = seconds + micros / 1e6
    ages = [(m.decode() if isinstance(m, bytes) else m, now - at) for m, at in members]
    full = [age for who, age in ages if who.startswith("full:")]
    alive = [who for who, age in ages if age <= SILENT_AFTER_SECONDS]
    return Beats(
        full_seconds=max(0.0, min(full)) if full else None,
        alive=len(alive),
        alive_full=sum(who.startswith("full:") for who in alive),
    )
