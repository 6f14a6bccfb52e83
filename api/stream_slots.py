"""Open event streams per client address and per token (MAX_STREAMS_PER_CLIENT), counted in
Redis so that every API process sees the same count: one client cannot take every stream.

Each open stream is a member of a sorted set per key, scored by when it was last seen alive; a
stream refreshes its score at each heartbeat, so the entry of a process that died goes stale and
stops counting. Should Redis be unreachable, streams are not capped meanwhile (logged): a cap is
a defence, not what streams need to work.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence

import redis

log = logging.getLogger("cardroom.streams")
STALE_SECONDS = 60.0  # a stream not seen alive for this long no longer counts


class StreamSlots:
    def __init__(self, connection: redis.Redis, prefix: str, cap: int, heartbeat: float) -> None:
        self._redis = connection
        self._prefix = prefix
        self._cap = cap
        self._stale = max(STALE_SECONDS, 4 * heartbeat)

    def acquire(self, owners: Sequence[str]) -> str | None:
        """A slot for a new stream of these owners (address, token), or None when one of them
        has as many open as the cap allows."""
        stream = uuid.uuid4().hex
        if self._cap <= 0:
            return stream
        try:
            return stream if self._try(stream, owners) else None
        except redis.RedisError as error:
            log.warning("stream caps unavailable (%s); this stream is not counted", error)
            return stream

    def _try(self, stream: str, owners: Sequence[str]) -> bool:
        now = time.time()
        keys = [self._key(owner) for owner in owners]
        with self._redis.pipeline() as pipe:
            for key in keys:
                pipe.zremrangebyscore(key, "-inf", now - self._stale)
                pipe.zadd(key, {stream: now})
                pipe.zcard(key)
                pipe.expire(key, int(self._stale) + 1)
            counts = pipe.execute()[2::4]
        if all(count <= self._cap for count in counts):
            return True
        self.release(stream, owners)  # added first, then counted: two racing both back off
        return False

    def refresh(self, stream: str, owners: Sequence[str]) -> None:
        self.refresh_many([(stream, owners)])

    def refresh_many(self, streams: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Marks these (stream, owners) alive now, in one round trip with one ZADD per owner: a
        stream process refreshes all its streams at once, where a call per stream was a Redis
        round trip per stream per heartbeat."""
        if self._cap <= 0:
            return
        now = time.time()
        by_key: dict[str, dict[str, float]] = defaultdict(dict)
        for stream, owners in streams:
            for owner in owners:
                by_key[self._key(owner)][stream] = now
        if not by_key:
            return
        try:
            with self._redis.pipeline() as pipe:
                for key, scores in by_key.items():
                    pipe.zadd(key, scores, xx=True)
                pipe.execute()
        except redis.RedisError as error:
            log.warning("stream caps unavailable: %s", error)

    def release(self, stream: str, owners: Sequence[str]) -> None:
        self._each(owners, lambda pipe, key: pipe.zrem(key, stream))

    def _each(self, owners: Sequence[str], command) -> None:
        if self._cap <= 0:
            return
        try:
            with self._redis.pipeline() as pipe:
                for owner in owners:
                    command(pipe, self._key(owner))
                pipe.execute()
        except redis.RedisError as error:
            log.warning("stream caps unavailable: %s", error)

    def _key(self, owner: str) -> str:
        return f"{self._prefix}:{owner}"
