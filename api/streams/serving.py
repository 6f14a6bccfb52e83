"""One stream, once its handshake has found whose it is and where it starts, on either path.

A stream is a `Source`: what it shows (a game as one viewer sees it, or a player's notices),
read in batches after a position. With no Pushpin in front, the API worker's greenlet serves it
(`served`): it holds no database connection while it waits, and is woken by its subject's
NOTIFY, its heartbeat, or its end (STREAM_MAX_SECONDS, or the server shutting down). Through
Pushpin, the app answers with what comes after the position and Pushpin's instructions to hold
the stream on (`held_part`); Pushpin comes back for what a stream missed (`held_now` says where
it stands). Every check that can refuse a stream is made before this, before the first byte.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from flask import Response, request

from api.http.problems import Problem
from api.http.pushpin import through_pushpin
from api.services import services
from api.streams import grip
from api.streams.hub import acquired, stale_seconds, stream_hub
from api.streams.slots import Slot
from events import stream_channels as channels
from events.event_text import sse_comment
from events.wakeups import Notifier

RETRY_MS = 2000  # how soon an EventSource reconnects after the stream drops
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Vary": "Authorization"}


@dataclass(frozen=True)
class Batch:
    """What a stream gets after a position: its SSE text, the position after it, whether more
    waits (True), none yet (False) or none ever will (None: the game is over and its last event
    is in `text`), and whether the stream's credential was rotated or revoked: then nothing
    more is sent on it."""

    text: str
    last: int
    more: bool | None
    revoked: bool = False


class Source(Protocol):
    @property
    def subject(self) -> UUID: ...  # what its notifications name: a game, a player

    @property
    def notified_on(self) -> str: ...  # the NOTIFY channel they come on

    @property
    def credential(self) -> str | None: ...  # the token's or key's hash (None: a spectator)

    @property
    def game(self) -> UUID | None: ...  # the game whose credentials the publisher watches

    @property
    def starts(self) -> str: ...  # the preamble's words: "events after version", ...

    def read(self, after: int, generation: object | None) -> Batch: ...

    def held_on(self) -> tuple[str, str]:
        """Pushpin's channel for it (held at the last position sent), and its next link."""
        ...


def opened(source: Source, after: int, owners: list[str], seated: bool) -> Response:
    """The stream, on the path the request came by, counted against its owners' caps."""
    pushpin = through_pushpin()
    slot = acquired(owners, seated, pushpin)
    if pushpin:
        return held_part(source, after, first=True, own=told_publisher(slot, source))
    hub, settings = stream_hub(), services().settings
    lifetime = stale_seconds(settings)
    body = served(
        source,
        hub.notifier(source.notified_on),
        after,
        settings.stream_heartbeat_seconds,
        settings.stream_max_seconds,
        lambda: hub.slots.renew(slot, lifetime),
    )
    response = Response(body, mimetype="text/event-stream", headers=HEADERS)
    # Released when the server closes the response, even if the body was never iterated.
    response.call_on_close(lambda: hub.slots.release(slot))
    return response


def preamble(after: int, starts: str) -> str:
    """A stream's first piece: how soon to reconnect, and where it starts."""
    return f"retry: {RETRY_MS}\n" + sse_comment(f"{starts} {after}")


def served(
    source: Source,
    notifier: Notifier,
    after: int,
    heartbeat: float,
    max_seconds: float,  # 0: until the game ends
    renew: Callable[[], None] = lambda: None,
) -> Iterator[str]:
    """SSE text: what comes after `after`, then whatever comes next, until the source has no
    more ever, its credential is revoked, `max_seconds` pass or the server shuts down.
    Subscribes before the first read, so no commit can slip between a read and the wait."""
    with notifier.subscribe(source.subject) as subscription:
        yield preamble(after, source.starts)
        last, started = after, time.monotonic()
        last_comment = started
        while True:
            batch = source.read(last, notifier.generation(source.subject))
            if batch.revoked:
                return
            if batch.text:  # one write for all of it: most often one event, at times a deal
                yield batch.text
            last = batch.last
            now = time.monotonic()
            if batch.more is None or notifier.closed or _over(max_seconds, started, now):
                return
            if batch.more:
                continue
            if now - last_comment >= heartbeat:
                yield sse_comment("keep-alive")
                renew()  # the stream's slot counts it as open while it beats
                last_comment = now
            due = last_comment + heartbeat - now  # never sleeps past a heartbeat or the end
            if max_seconds:
                due = min(due, started + max_seconds - now)
            subscription.wait(max(0.0, min(notifier.poll_timeout(heartbeat), due)))


def _over(max_seconds: float, started: float, now: float) -> bool:
    return bool(max_seconds) and now - started >= max_seconds


def held_part(source: Source, after: int, first: bool, own: Iterable[str]) -> Response:
    """What Pushpin sends next on a held stream: all that comes after `after`, and the
    instructions to hold it on; or, once nothing more will come, the end of the stream.
    `own`: the stream's own channels, held on as they are."""
    text, last = [preamble(after, source.starts)] if first else [], after
    while True:
        batch = source.read(last, object())  # a generation nothing was read at: the store
        if batch.revoked:
            return _events("")
        text.append(batch.text)
        last = batch.last
        if batch.more is None:
            return _events("".join(text))
        if not batch.more:
            break
    channel, link = source.held_on()
    held: list[tuple[str, int | None]] = [(channel, last)]
    if source.credential is not None:
        held.append((channels.credential_channel(source.credential), 0))
    held += [(name, 0) for name in own]
    heartbeat = services().settings.stream_heartbeat_seconds
    return grip.hold(_events("".join(text)), held, link, heartbeat)


@dataclass(frozen=True)
class Held:
    """A held stream as Pushpin describes it on its next link (its channels' positions)."""

    credential: str | None
    channel: str  # the channel it shows
    last: int  # the last position sent on that channel
    own: list[str]  # its own channels


def held_now(shows: Callable[[str], bool], digits: int) -> Held:
    """Where the held stream stands: one channel that `shows` accepts, at a position of at
    most `digits` digits (401 unless the channels are as the app held them)."""
    credential, shown, own = None, [], []
    for name, position in grip.last_ids().items():
        if name.startswith(channels.CREDENTIAL):
            credential = name.removeprefix(channels.CREDENTIAL)
        elif name.startswith(channels.STREAM):
            own.append(name)
        elif shows(name):
            shown.append((name, position))
    if len(shown) != 1 or not re.fullmatch(f"[0-9]{{1,{digits}}}", shown[0][1]):
        raise not_as_held()
    return Held(credential, shown[0][0], int(shown[0][1]), own)


def not_as_held() -> Problem:
    return Problem("unauthorized", "the stream's channels are not as the app held them")


def told_publisher(slot: Slot, source: Source) -> list[str]:
    """What the stream publisher must know of a stream Pushpin holds: its game's credential (to
    end its streams once it no longer acts for its seat), and its end (STREAM_MAX_SECONDS),
    which gives it a channel of its own to close. Returns that channel, if any."""
    svc = services()
    prefix, max_seconds = svc.settings.queue_name, svc.settings.stream_max_seconds
    if source.game is not None and source.credential is not None:
        channels.watch(svc.redis, prefix, source.game, source.credential)
    if not max_seconds:
        return []
    channels.end_at(svc.redis, prefix, slot.id, time.time() + max_seconds)
    return [channels.stream_channel(slot.id)]


def resume_point(from_query: int, what: str, digits: int) -> int:
    """`Last-Event-ID` (what an EventSource sends on reconnecting) wins over `?after=`; an
    empty one counts as absent."""
    header = request.headers.get("Last-Event-ID")
    if not header:
        return from_query
    if not re.fullmatch(f"[0-9]{{1,{digits}}}", header):
        raise Problem(
            "validation-error",
            f"Last-Event-ID must be {what}",
            errors={"Last-Event-ID": [f"must be 1-{digits} digits"]},
        )
    return int(header)


def _events(text: str) -> Response:
    return Response(text, mimetype="text/event-stream", headers=HEADERS)
