"""What an API process shares between its streams: a LISTEN connection per notification channel
(started with the first stream that waits on it), the games' feeds, and the stream counts in
Redis, which refuse a stream past a client's cap or the server's."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import redis
from flask import current_app

from api.http.problems import Problem
from api.services import services
from api.streams import grip
from api.streams.feeds import Feeds
from api.streams.slots import Slot, StreamSlots
from events.bootstrap import new_notifier
from events.operations import metrics
from events.operations.settings import Settings
from events.wakeups import Notifier

BATCH = 500  # a game's events read at once; a longer backlog is sent in several reads
RETRY_SECONDS = 5  # after a stream of the same client ends
STALE_SECONDS = 60.0  # a stream served here counts this long after its last heartbeat
_HUB_LOCK = threading.Lock()


@dataclass
class StreamHub:
    slots: StreamSlots
    feeds: Feeds
    notifiers: dict[str, Notifier] = field(default_factory=dict)  # by NOTIFY channel

    def notifier(self, channel: str) -> Notifier:
        with _HUB_LOCK:
            if channel not in self.notifiers:
                self.notifiers[channel] = new_notifier(services().settings.database_url, channel)
            return self.notifiers[channel]

    def close(self) -> None:
        """Stops listening: every stream this process serves ends at once."""
        with _HUB_LOCK:
            for notifier in self.notifiers.values():
                notifier.close()


def stream_hub() -> StreamHub:
    with _HUB_LOCK:
        hub = current_app.extensions.get("cardroom_streams")
        if hub is None:
            svc = services()
            hub = StreamHub(stream_slots(svc.settings, svc.redis), Feeds(svc.queries, BATCH))
            current_app.extensions["cardroom_streams"] = hub
        return hub


def stream_slots(settings: Settings, connection: redis.Redis) -> StreamSlots:
    return StreamSlots(
        connection,
        f"{settings.queue_name}-streams",
        settings.max_streams_per_client,
        settings.max_streams,
        settings.stream_seat_share,
    )


def stale_seconds(settings: Settings) -> float:
    return max(STALE_SECONDS, 4 * settings.stream_heartbeat_seconds)


def acquired(owners: list[str], seated: bool, pushpin: bool) -> Slot:
    """A slot, or the problem that refuses the stream: 429 past a client's cap, 503 past the
    server's. A stream Pushpin holds counts for LEASE_LIFETIME, in its owners' counts alone:
    Pushpin does not say when it ends, and its own limit bounds what it holds."""
    lifetime = grip.LEASE_LIFETIME if pushpin else stale_seconds(services().settings)
    slot = stream_hub().slots.acquire(owners, seated, lifetime, in_all=not pushpin)
    if slot == "client":
        metrics.RATE_LIMITED.labels("streams-per-client").inc()
        cap = services().settings.max_streams_per_client
        detail = f"{cap} streams are open for this client already"
        raise Problem("rate-limited", detail, retry_after=RETRY_SECONDS)
    if slot == "server":
        detail = "this server holds as many streams as it can; retry"
        raise Problem("unavailable", detail, retry_after=1)
    assert isinstance(slot, Slot)
    return slot
