"""The body of an event stream (Server-Sent Events): what one open stream does until it ends.

A stream holds no database connection while it waits: it borrows one from the pool for two
short reads (the events after the last one sent, then the game, to know whether it is over),
then sleeps on its subscription until a NOTIFY for its game or its poll timeout.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from uuid import UUID

from api.rendering import render_event
from events.postgres.notifications import GameNotifier
from events.queries import Queries

BATCH = 500  # events read at once; a longer backlog is sent in several reads
RETRY_MS = 2000  # how soon an EventSource reconnects after the stream drops


@dataclass(frozen=True)
class StreamSpec:
    game_id: UUID
    viewer: int | None
    after: int
    heartbeat: float
    max_seconds: float  # 0: until the game ends


def sse_event(event: dict) -> str:
    data = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event['version']}\nevent: {event['type']}\ndata: {data}\n\n"


def sse_comment(text: str) -> str:
    return f": {text}\n\n"


def event_stream(
    spec: StreamSpec,
    queries: Queries,
    notifier: GameNotifier,
    alive: Callable[[], None] = lambda: None,
) -> Iterator[str]:
    """Yields SSE text: the events after `spec.after`, then each new one, until the game's final
    event has been sent (or `max_seconds` pass). Subscribes before the first read, so no commit
    can slip between that read and the wait."""
    with notifier.subscribe(spec.game_id) as subscription:
        yield f"retry: {RETRY_MS}\n" + sse_comment(f"events after version {spec.after}")
        last, started = spec.after, time.monotonic()
        last_comment = started
        while True:
            batch, more = _read(spec, queries, last)
            for event in batch:
                yield sse_event(event)
                last = event["version"]
            if more is None or notifier.closed:
                return  # the game is over and its final event has been sent, or shutting down
            now = time.monotonic()
            if spec.max_seconds and now - started >= spec.max_seconds:
                return
            if more:
                continue
            if now - last_comment >= spec.heartbeat:
                yield sse_comment("keep-alive")
                alive()  # the stream's slot counts it as open while it beats
                last_comment = now
            wait = min(notifier.poll_timeout(spec.heartbeat), last_comment + spec.heartbeat - now)
            if spec.max_seconds:  # never sleep past the stream's end
                wait = min(wait, started + spec.max_seconds - now)
            subscription.wait(max(0.0, wait))


def _read(spec: StreamSpec, queries: Queries, after: int):
    """(events to send, more): `more` is True when events are already waiting, False when the
    stream should wait, None when the game is over and nothing is left to send."""
    stored, table, version = queries.events_then_game(spec.game_id, after, BATCH)
    events = [render_event(table, event, spec.viewer) for event in stored]
    last = stored[-1].version if stored else after
    if last < version:
        return events, True
    return events, (None if table.status == "finished" else False)
