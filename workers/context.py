"""Per-process resources of a worker: built once, on first use (jobs get ids only)."""

from __future__ import annotations

from functools import cache

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from events.db import make_pool
from events.handler import Handler
from events.settings import Settings, load_settings
from events.signing import load_or_create_signer


@cache
def settings() -> Settings:
    return load_settings()


@cache
def handler() -> Handler:
    pool = make_pool(settings().database_url, max_size=4)
    return Handler(pool, signer=load_or_create_signer(settings().audit_key_path))


@cache
def redis_connection() -> redis.Redis:
    return redis.Redis.from_url(settings().redis_url)


def queue() -> Queue:
    return Queue(settings().queue_name, connection=redis_connection(), serializer=JSONSerializer)
