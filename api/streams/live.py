"""The body of an event stream (Server-Sent Events): what one open stream does until it ends.

Served by the API worker's greenlet when no Pushpin is in front (api/streams/game_stream.py). A
stream holds no database connection while it waits. When woken it asks its game's feed
(api/streams/feeds.py) for the events after the last one it sent: the feed reads the store once
for every stream of the game in this process. Then it sleeps on its subscription until a
NOTIFY for its game, its heartbeat, or its end (`max_seconds`, or the server shutting down).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from uuid import UUID

from api.streams.feeds import GameFeed
from events.event_text import sse_comment
from events.wakeups import Notifier

BATCH = 500  # events read at once; a longer backlog is sent in several reads
RETRY_MS = 2000  # how soon an EventSource reconnects after the stream drops


@dataclass(frozen=True)
class StreamSpec:
    game_id: UUID
    viewer: int | None
    after: int
    heartbeat: float
    max_seconds: float  # 0: until the game ends
    # The hash of the seat token that opened the stream (directly or through a ticket): the
    # stream is that credential's, and ends once it is rotated or revoked. None: a spectator.
    credential: str | None = None

    def ended(self, started: float, now: float) -> bool:
        """Whether a stream opened at `started` has reached `max_seconds`."""
        return bool(self.max_seconds) and now - started >= self.max_seconds

    def next_due(self, started: float, last_comment: float, now: float) -> float:
        """Seconds until its next heartbeat, or its end if that comes first: a stream never
        sleeps past either."""
        due = last_comment + self.heartbeat - now
        return min(due, started + self.max_seconds - now) if self.max_seconds else due


def preamble(after: int, what: str = "events after version") -> str:
    """A stream's first piece: how soon to reconnect, and where it starts."""
    return f"retry: {RETRY_MS}\n" + sse_comment(f"{what} {after}")


def event_stream(
    spec: StreamSpec,
    feed: GameFeed,
    notifier: Notifier,
    renew: Callable[[], None] = lambda: None,
) -> Iterator[str]:
    """Yields SSE text: the events after `spec.after`, then each new one, until the game's final
    event has been sent (or `max_seconds` pass, or the server shuts down). Subscribes before
    the first read, so no commit can slip between that read and the wait."""
    with notifier.subscribe(spec.game_id) as subscription:
        yield preamble(spec.after)
        last, started = spec.after, time.monotonic()
        last_comment = started
        while True:
            reading = feed.read(last, spec.viewer, notifier.generation(spec.game_id))
            if reading.ends(spec.credential):
                return  # its token was rotated or revoked: nothing more for it
            if reading.events:  # one write for all of them: most often one event, at times a deal
                yield "".join(text for _, text in reading.events)
                last = reading.events[-1][0]
            if reading.more is None or notifier.closed:
                return  # the game is over and its final event has been sent, or shutting down
            now = time.monotonic()
            if spec.ended(started, now):
                return
            if reading.more:
                continue
            if now - last_comment >= spec.heartbeat:
                yield sse_comment("keep-alive")
                renew()  # the stream's slot counts it as open while it beats
                last_comment = now
            wait = min(
                notifier.poll_timeout(spec.heartbeat), spec.next_due(started, last_comment, now)
            )
            subscription.wait(max(0.0, wait))
