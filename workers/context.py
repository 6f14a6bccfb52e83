"""Per-process resources of a worker: built once, on first use (jobs get ids only)."""

from __future__ import annotations

import threading
from functools import cache

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from events.bootstrap import Cardroom, bootstrap
from events.matchmaking.matcher import SEATING_THREADS
from events.operations.bot_tables import BotTableCounter
from events.operations.settings import Settings, settings_or_exit


@cache
def settings() -> Settings:
    return settings_or_exit()


_BUILDING = threading.Lock()


@cache
def _built() -> Cardroom:
    # The relay, sweeper and timers, the job, webhook threads (each holds a connection only to
    # lease or record a delivery, never while the receiver answers) and the matcher's seating.
    return bootstrap(settings(), pool_size=4 + settings().webhook_threads // 2 + SEATING_THREADS)


def cardroom() -> Cardroom:
    """One per process: the relay, sweeper, timers and jobs start at once, and `cache` alone
    would let two of them build it (two pools, two races for a new signing key)."""
    with _BUILDING:
        return _built()


def forget() -> None:
    """Drops what this process built, so the next use reads the environment again (tests)."""
    for cached in (settings, _built, redis_connection, bot_table_counter):
        cached.cache_clear()


@cache
def redis_connection() -> redis.Redis:
    return redis.Redis.from_url(settings().redis_url)


@cache
def bot_table_counter() -> BotTableCounter:
    """Counts the tables the turn timers leave to bots alone, in the API's own buckets."""
    return BotTableCounter(settings())


def queue(urgent: bool = False) -> Queue:
    """Work a human waits for goes to its own queue, which workers take first."""
    name = f"{settings().queue_name}-humans" if urgent else settings().queue_name
    return Queue(name, connection=redis_connection(), serializer=JSONSerializer)


def queues() -> list[Queue]:
    """In the order a worker takes jobs: those a human waits for first."""
    return [queue(urgent=True), queue()]
