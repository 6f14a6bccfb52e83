"""Per-process resources of a worker: built once, on first use (jobs get ids only)."""

from __future__ import annotations

from functools import cache

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from events.bootstrap import Cardroom, bootstrap
from events.settings import Settings, load_settings


@cache
def settings() -> Settings:
    return load_settings()


@cache
def cardroom() -> Cardroom:
    return bootstrap(settings(), pool_size=4)


@cache
def redis_connection() -> redis.Redis:
    return redis.Redis.from_url(settings().redis_url)


def queue() -> Queue:
    return Queue(settings().queue_name, connection=redis_connection(), serializer=JSONSerializer)
