"""The stream publisher: when Pushpin holds the streams (PUSHPIN_URLS), each committed event goes
to Pushpin once per viewer channel (each seat, and spectators), rendered as that viewer may see
it, through Pushpin's HTTP publish API (events/stream_channels.py names the channels).

Woken by the append's NOTIFY, which names the game and its first new version: a commit is one
read (its events, its seats' credentials and the game, in order) and one publish to each
Pushpin. Each item carries its version as `id` and the one before as `prev-id`: Pushpin delivers
them in order, and a stream that is not where an item follows comes back to the API for what it
missed (api/streams/grip.py). Before a commit's events, the streams of every credential that no
longer acts for its seat (rotated, or its seat left) are closed: they get nothing more. After a
game's final event, its streams are closed. A player's notices are few: the player's channel
gets a hint, and Pushpin asks the API for them.

One publisher at a time (a Postgres advisory lock on its listening connection; the others wait
to take over). Whatever a publisher did not publish (it was down, or took over, or its LISTEN
connection broke) is caught up by telling each Pushpin to recover: every held stream asks the
API for what it may have missed.
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
import time
from collections.abc import Iterable
from typing import Any, cast
from urllib.parse import urlsplit
from uuid import UUID

from events.event_text import event_json, sse_message
from events.stream_channels import (
    credential_channel,
    ends_key,
    player_channel,
    stream_channel,
    viewer_channel,
    watched_key,
)
from events.wakeups import (
    GAME_CHANNEL,
    PLAYER_CHANNEL,
    Listener,
    ListenerLost,
    Wakeup,
    first_version_of,
    game_of,
)
from workers import context

log = logging.getLogger("cardroom.publisher")
LOCK = 0x5354_5245_414D  # the advisory lock the publisher holds
STANDBY_SECONDS = 2.0  # another publisher holds the lock: try again after this long
RECONNECT_FIRST, RECONNECT_MAX = 0.5, 10.0
BATCH = 500
GATHER_SECONDS = 0.002  # notifications that arrive together are published together
NO_EVENTS = 2**31 - 1  # a read "after" this finds only the credentials


class Pushpin:
    """One Pushpin's control API, over a connection kept open."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._address = (parts.hostname or "127.0.0.1", parts.port or 5561)
        self._conn: http.client.HTTPConnection | None = None
        self.behind = True  # it may have missed something: tell it to recover

    def post(self, path: str, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        for attempt in (1, 2):  # a kept connection may have been closed meanwhile
            try:
                if self._conn is None:
                    self._conn = http.client.HTTPConnection(*self._address, timeout=5)
                headers = {"Content-Type": "application/json"}
                self._conn.request("POST", path, data, headers)
                response = self._conn.getresponse()
                response.read()
                if response.status != 200:
                    raise OSError(f"{path}: {response.status}")
                return
            except (OSError, http.client.HTTPException):
                self._conn = None
                if attempt == 2:
                    raise

    def send(self, items: list[dict[str, Any]]) -> None:
        """Publishes, after a recover if it may have missed something."""
        try:
            if self.behind:
                self.post("/recover", {})
                self.behind = False
            if items:
                self.post("/publish/", {"items": items})
        except (OSError, http.client.HTTPException) as error:
            if not self.behind:
                log.warning("Pushpin at %s:%s: %s; recovering later", *self._address, error)
            self.behind = True


def game_items(game_id: UUID, first: int | None) -> list[dict[str, Any]]:
    """What a commit of the game (its first new version, or None: its credentials changed)
    publishes: closes for credentials gone, its events for each viewer, closes at the end."""
    queries = context.cardroom().queries
    read = queries.events_then_game(game_id, NO_EVENTS if first is None else first - 1, BATCH)
    items = _closed_credentials(game_id, read.credentials)
    viewers = [None, *range(len(read.table.seats))]
    for stored in read.events:
        for viewer in viewers:
            text = sse_message(event_json(read.table, stored, viewer))
            items.append(_item(viewer_channel(game_id, viewer), stored.version, text))
    if read.events and read.events[-1].version == read.version:
        if read.table.status == "finished":
            items += [_close(viewer_channel(game_id, viewer), read.version) for viewer in viewers]
    elif read.events:  # more than a batch: the rest, in order
        items += game_items(game_id, read.events[-1].version + 1)
    return items


def _closed_credentials(game_id: UUID, credentials: frozenset[str]) -> list[dict[str, Any]]:
    """Closes for the credentials with streams held on the game that no longer act for it."""
    redis, prefix = context.redis_connection(), context.settings().queue_name
    key = watched_key(prefix, game_id)
    # redis-py types every answer as "an awaitable, or anything" (its asyncio client shares
    # the methods); this client's are plain values.
    members = cast(set[bytes], redis.smembers(key))
    gone = [c.decode() for c in members if c.decode() not in credentials]
    if gone:
        redis.srem(key, *gone)
    return [_close(credential_channel(credential)) for credential in gone]


def ended_streams(now: float) -> list[dict[str, Any]]:
    """Closes for the streams whose time (STREAM_MAX_SECONDS) is up."""
    redis, key = context.redis_connection(), ends_key(context.settings().queue_name)
    due = cast(list[bytes], redis.zrangebyscore(key, "-inf", now))  # as in _closed_credentials
    if due:
        redis.zrem(key, *due)
    return [_close(stream_channel(slot.decode())) for slot in due]


def _item(channel: str, version: int, text: str) -> dict[str, Any]:
    return {
        "channel": channel,
        "id": str(version),
        "prev-id": str(version - 1),
        "formats": {"http-stream": {"content": text}},
    }


def _close(channel: str, after: int = 0) -> dict[str, Any]:
    """A close that follows the position the API held the channel at (`prev-id`: a stream's
    own and its credential's are held at 0, a viewer's at the last version sent)."""
    close = {"http-stream": {"action": "close"}}
    return {"channel": channel, "prev-id": str(after), "formats": close}


def items_for(notes: Iterable[Wakeup]) -> list[dict[str, Any]]:
    """The items of these notifications, each game's in the order of its commits."""
    games: dict[UUID, int | None] = {}
    players: set[str] = set()
    for note in notes:
        if note.channel == PLAYER_CHANNEL:
            players.add(note.payload)
            continue
        game_id = game_of(note.payload)
        if game_id is None:
            continue
        version = first_version_of(note.payload)
        known = games.get(game_id, version)
        games[game_id] = version if known is None else min(known, version or known)
    items = []
    for game_id, first in games.items():
        items += game_items(game_id, first)
    hint = {"http-stream": {"action": "hint"}}
    items += [{"channel": player_channel(p), "formats": hint} for p in players]
    return items


def publish_forever(stop: threading.Event) -> None:
    """Publishes until stopped, while it holds the lock; stands by while another does."""
    urls = [url.strip() for url in context.settings().pushpin_urls.split(",") if url.strip()]
    pushpins = [Pushpin(url) for url in urls]
    delay = RECONNECT_FIRST
    while pushpins and not stop.is_set():
        try:
            with context.cardroom().listen(GAME_CHANNEL, PLAYER_CHANNEL) as listener:
                if not listener.try_lock(LOCK):
                    stop.wait(STANDBY_SECONDS)
                    continue
                log.info("publishing to %s", ", ".join(urls))
                delay = RECONNECT_FIRST
                for pushpin in pushpins:
                    pushpin.behind = True  # whatever committed before this LISTEN
                _publish_while_listening(listener, pushpins, stop)
        except ListenerLost as error:
            log.warning("the publisher's connection failed (%s); again in %.1f s", error, delay)
            stop.wait(delay)
            delay = min(RECONNECT_MAX, delay * 2)


def _publish_while_listening(
    listener: Listener, pushpins: list[Pushpin], stop: threading.Event
) -> None:
    while not stop.is_set():
        notes = list(listener.wakeups(timeout=1.0, stop_after=1))
        if notes:
            notes += list(listener.wakeups(timeout=GATHER_SECONDS))
        try:
            items = ended_streams(time.time()) + items_for(notes)
        except Exception:  # a read failed: what it missed is recovered
            log.exception("publishing failed; the streams will recover it")
            for pushpin in pushpins:
                pushpin.behind = True
            items = []
        for pushpin in pushpins:
            pushpin.send(items)
