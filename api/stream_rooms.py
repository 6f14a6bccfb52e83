"""The fan-out of a stream process (api/stream_server.py): one greenlet per game writes each new
event to every stream of that game.

A greenlet per stream, each waking on the game's NOTIFY, asking the feed and writing its own
copy, cost a wake-up, a timer and a feed lookup per stream per event: with 10,000 streams most
of the process's time went to switching between them. A room wakes once per event, asks the
feed once per viewer and position, frames the text once, and offers the bytes to each stream's
socket without waiting. A client that cannot take them at once (its socket's buffer is full)
gets the rest from its stream's own greenlet, so it never holds up the others; one that falls
PENDING_LIMIT behind is let go, and resumes with Last-Event-ID.

What a stream receives is what api/games/live.py sends: the same events from the same feeds,
a heartbeat comment at least every `heartbeat` seconds, the end of the game, `max_seconds`, and
an end as soon as the server shuts down. A room beats its streams together: whenever one is due,
so is every other due within BEAT_SLACK of a heartbeat. Streams join at any moment, and beating
each on its own woke the room once per stream per heartbeat; grouped, a room wakes a few times.
"""

from __future__ import annotations

import logging
import socket
import time
from collections import defaultdict
from uuid import UUID

import gevent
from gevent.event import Event

from api.games.feeds import Feeds
from api.games.live import StreamSpec, sse_comment
from events.postgres.notifications import GameNotifier, Subscription

log = logging.getLogger("cardroom.streams")
PENDING_LIMIT = 1 << 20  # bytes a stream may fall behind its socket before it is let go
BEAT_SLACK = 0.25  # of a heartbeat: how early a stream may beat along with another one due
KEEP_ALIVE = sse_comment("keep-alive")


class Member:
    """One open stream in a room: where it is in the game, and what its socket has not taken
    yet. `serve` runs in the stream's own greenlet until the stream ends."""

    def __init__(
        self,
        spec: StreamSpec,
        client: socket.socket,
        http10: bool,
        now: float,
    ) -> None:
        self.spec = spec
        self.http10 = http10
        self.last = spec.after
        self.started = now
        self.last_comment = now
        self.ended = False
        self._client = client
        self._pending = bytearray()
        self._writing = False  # the stream's greenlet is sending what the socket did not take
        self._wake = Event()

    def offer(self, data: bytes) -> None:
        """Sends `data` as far as the socket takes it now; the rest goes from `serve`."""
        if self.ended:
            return
        if self._writing:
            if len(self._pending) + len(data) > PENDING_LIMIT:
                self.end()  # a client this far behind is let go: it resumes where it was
            else:
                self._pending += data
            return
        try:
            sent = self._client.send(data, 0, 0.0)  # type: ignore[call-arg]  # gevent: never wait
        except BlockingIOError:
            sent = 0
        except OSError:  # the client left
            self.end()
            return
        if sent < len(data):
            self._pending += data[sent:]
            self._writing = True
            self._wake.set()

    def beat(self, data: bytes, now: float) -> None:
        """Offers the heartbeat comment, `data` as framed for this stream."""
        self.offer(data)
        self.last_comment = now

    def end(self) -> None:
        self.ended = True
        self._wake.set()

    def serve(self) -> None:
        """Until the stream ends: sends what the socket did not take at once. Then the rest, so
        the last event is not lost."""
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._pending:
                self._drain()
            if self.ended:
                return

    def _drain(self) -> None:
        try:
            while self._pending:
                data = bytes(self._pending)
                self._pending.clear()
                self._client.sendall(data)  # other greenlets may add to `_pending` meanwhile
        except OSError:
            self.ended = True
            self._pending.clear()
        finally:
            self._writing = False


class Room:
    """The streams of one game in this process, served by one greenlet."""

    def __init__(self, game_id: UUID, rooms: Rooms) -> None:
        self.game_id = game_id
        self.members: list[Member] = []
        self.done = False
        self._rooms = rooms
        self._feed = rooms.feeds.of(game_id)  # held: the feed lives while the room does
        self._subscription: Subscription | None = None

    def join(self, member: Member) -> None:
        self.members.append(member)
        if self._subscription is not None:
            self._subscription.woken.set()  # read for it now, not at the next event

    def run(self) -> None:
        notifier = self._rooms.notifier
        try:
            with notifier.subscribe(self.game_id) as subscription:
                self._subscription = subscription
                while self.members:
                    wait = self._step(notifier)
                    if wait is not None:
                        subscription.wait(wait)
        except Exception:
            log.exception("the streams of a game failed")  # they resume with Last-Event-ID
            for member in self.members:
                member.end()
        finally:
            self.done = True
            self._rooms.forget(self)
            for member in self.members:  # joined while this room was closing: a new room
                if not member.ended:
                    self._rooms.join(member)

    def _step(self, notifier: GameNotifier) -> float | None:
        """Sends what is new to every stream; ends those that are over. Returns how long to
        wait for the next event, or None when some streams have more to read now."""
        generation = notifier.generation(self.game_id)  # before the reads, as in live.py
        now = time.monotonic()
        more = False
        for (viewer, after), members in _by_position(self.members).items():
            reading = self._feed.read(after, viewer, generation)
            for member in members:
                if reading.ends(member.spec.credential):
                    member.end()  # its token was rotated or revoked: nothing more for it
            members = [member for member in members if not member.ended]
            if reading.events:
                _send(members, "".join(text for _, text in reading.events))
                for member in members:
                    member.last = reading.events[-1][0]
            if reading.more is None:
                for member in members:
                    member.end()
            more = more or bool(reading.more)
        for member in self.members:
            if notifier.closed or member.spec.ended(member.started, now):
                member.end()
        self.members = [member for member in self.members if not member.ended]
        if more:
            return None
        return self._beat_and_next_wake(notifier, now)

    def _beat_and_next_wake(self, notifier: GameNotifier, now: float) -> float:
        """Beats the streams due, and with them those due within BEAT_SLACK, if any is; returns
        how long until the next is due."""
        wait = notifier.poll_timeout(self._rooms.heartbeat)
        if any(now - m.last_comment >= m.spec.heartbeat for m in self.members):
            beats = _Framings(KEEP_ALIVE)
            for member in self.members:
                if now - member.last_comment >= member.spec.heartbeat * (1 - BEAT_SLACK):
                    member.beat(beats.of(member), now)
        for member in self.members:
            wait = min(wait, member.spec.next_due(member.started, member.last_comment, now))
        return max(0.0, wait)


def _by_position(members: list[Member]) -> dict[tuple[int | None, int], list[Member]]:
    groups: dict[tuple[int | None, int], list[Member]] = defaultdict(list)
    for member in members:
        groups[(member.spec.viewer, member.last)].append(member)
    return groups


def framed(text: str, http10: bool) -> bytes:
    """A piece of a stream's body: a chunk (HTTP/1.1), or the bytes as they are (HTTP/1.0,
    whose body ends with the connection)."""
    data = text.encode()
    return data if http10 else b"%x\r\n%s\r\n" % (len(data), data)


class _Framings:
    """One text framed for each framing its streams use, each framed once."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._framed: dict[bool, bytes] = {}

    def of(self, member: Member) -> bytes:
        data = self._framed.get(member.http10)
        if data is None:
            data = self._framed[member.http10] = framed(self._text, member.http10)
        return data


def _send(members: list[Member], text: str) -> None:
    """Offers `text` to each stream, framed once per framing."""
    framings = _Framings(text)
    for member in members:
        member.offer(framings.of(member))


class Rooms:
    """This process's rooms, one per game with open streams here."""

    def __init__(self, notifier: GameNotifier, feeds: Feeds, heartbeat: float) -> None:
        self.notifier = notifier
        self.feeds = feeds
        self.heartbeat = heartbeat
        self._rooms: dict[UUID, Room] = {}

    def join(self, member: Member) -> None:
        """Adds the stream to its game's room, starting the room if it has none. Greenlets
        switch only where they wait, so no room ends between this lookup and the join."""
        game_id = member.spec.game_id
        room = self._rooms.get(game_id)
        if room is None or room.done:
            room = self._rooms[game_id] = Room(game_id, self)
            room.join(member)
            gevent.spawn(room.run)
        else:
            room.join(member)

    def forget(self, room: Room) -> None:
        if self._rooms.get(room.game_id) is room:
            del self._rooms[room.game_id]
