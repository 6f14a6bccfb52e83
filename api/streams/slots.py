"""Open event streams, counted in Redis so that every API process (and node) sees the same
counts: per client address and per credential (MAX_STREAMS_PER_CLIENT: one client cannot take
every stream), and in all, seated and spectating (MAX_STREAMS, of which spectators may hold
only their share).

Each open stream is a member of a sorted set per count, scored by when it stops counting unless
renewed: a stream served by a worker renews at each heartbeat, one that Pushpin holds when
Pushpin asks for its next part. A process writes its streams' renewals together (one round
trip a second, not one per stream: 10,000 streams beating every 15 s made 667 a second).
The streams of a process or a Pushpin that died stop counting once their time is past. Two
streams opening at the same instant may each pass a cap by one. Should Redis be unreachable,
streams are not counted meanwhile (logged): a cap is a defence, not what streams need to work.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import redis
from redis.client import Pipeline

log = logging.getLogger("cardroom.streams")
SEATED, WATCHING = "all-seated", "all-watching"
KEY_SECONDS = 3600  # a count no stream joined or renewed for this long is dropped whole
# A renewal waits at most until the process's next one this long after the last write: within
# a heartbeat, while a stream counts for several (api/streams/hub.py's stale_seconds).
RENEWAL_BATCH_SECONDS = 1.0


@dataclass(frozen=True)
class Slot:
    id: str
    counts: tuple[str, ...]  # the counts it is in: its owners', then SEATED or WATCHING


class StreamSlots:
    def __init__(
        self, connection: redis.Redis, prefix: str, per_client: int, capacity: int, share: float
    ) -> None:
        """`share`: of `capacity`, what only seats may take (STREAM_SEAT_SHARE)."""
        self._redis = connection
        self._prefix = prefix
        self._per_client = per_client
        self._capacity = capacity
        # Spectators may hold at least one, and one less than all.
        self._watching = max(1, capacity - max(1, round(capacity * share)))
        self._lock = threading.Lock()  # gevent's, once patched: greenlets share the batch
        self._due: dict[str, tuple[Slot, float]] = {}  # renewals not yet written
        self._next_write = 0.0  # monotonic: when due renewals may be written again

    def acquire(
        self, owners: Sequence[str], seated: bool, lifetime: float, in_all: bool = True
    ) -> Slot | str:
        """A slot for a new stream of these owners (address, credential), counting for
        `lifetime` seconds unless renewed; or why not: "client" (an owner holds as many as the
        cap allows) or "server" (all the streams there may be, or the spectators' share).
        `in_all`: whether it counts in all (False: only its owners')."""
        kind = (SEATED if seated else WATCHING,) if in_all else ()
        slot = Slot(uuid.uuid4().hex, (*owners, *kind))
        now = time.time()
        try:
            with self._redis.pipeline() as pipe:
                for count in (*owners, SEATED, WATCHING):
                    pipe.zremrangebyscore(self._key(count), "-inf", now)
                self._add(pipe, slot, now + lifetime)
                for count in (*owners, SEATED, WATCHING):
                    pipe.zcard(self._key(count))
                sizes = pipe.execute()[-len(owners) - 2 :]
        except redis.RedisError as error:
            log.warning("stream counts unavailable (%s); this stream is not counted", error)
            return slot
        seated_now, watching_now = sizes[-2:]
        refusal = None
        if self._per_client > 0 and any(size > self._per_client for size in sizes[:-2]):
            refusal = "client"
        elif in_all and seated_now + watching_now > self._capacity:
            refusal = "server"
        elif in_all and not seated and watching_now > self._watching:
            refusal = "server"
        if refusal is not None:
            self.release(slot)  # added first, then counted: two racing both back off
            return refusal
        return slot

    def renew(self, slot: Slot, lifetime: float) -> None:
        """Counts the stream for `lifetime` more seconds, written with the process's other
        renewals due (at once when none was written in the last RENEWAL_BATCH_SECONDS)."""
        with self._lock:
            self._due[slot.id] = (slot, time.time() + lifetime)
            if time.monotonic() < self._next_write:
                return
            due, self._due = self._due, {}
            self._next_write = time.monotonic() + RENEWAL_BATCH_SECONDS
        self._each(lambda pipe: self._renew_all(pipe, due.values()), transaction=False)

    def release(self, slot: Slot) -> None:
        with self._lock:
            self._due.pop(slot.id, None)

        def remove(pipe: Pipeline) -> None:
            for count in slot.counts:
                pipe.zrem(self._key(count), slot.id)

        self._each(remove)

    def open_streams(self) -> tuple[int, int]:
        """(seated, spectating) streams open now, for /metrics."""
        now = time.time()
        with self._redis.pipeline() as pipe:
            for count in (SEATED, WATCHING):
                pipe.zcount(self._key(count), now, "+inf")
            seated, watching = pipe.execute()
        return seated, watching

    def _add(self, pipe: Pipeline, slot: Slot, until: float, renew: bool = False) -> None:
        for count in slot.counts:
            pipe.zadd(self._key(count), {slot.id: until}, xx=renew)
            pipe.expire(self._key(count), KEY_SECONDS)

    def _renew_all(self, pipe: Pipeline, due: Iterable[tuple[Slot, float]]) -> None:
        """One ZADD per count for all its streams due; XX: a stream released meanwhile stays
        gone."""
        scores: defaultdict[str, dict[str, float]] = defaultdict(dict)
        for slot, until in due:
            for count in slot.counts:
                scores[self._key(count)][slot.id] = until
        for key, members in scores.items():
            pipe.zadd(key, members, xx=True)
            pipe.expire(key, KEY_SECONDS)

    def _each(self, commands: Callable[[Pipeline], None], transaction: bool = True) -> None:
        try:
            with self._redis.pipeline(transaction=transaction) as pipe:
                commands(pipe)
                pipe.execute()
        except redis.RedisError as error:
            log.warning("stream counts unavailable: %s", error)

    def _key(self, count: str) -> str:
        return f"{self._prefix}:{count}"
