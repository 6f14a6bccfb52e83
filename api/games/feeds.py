"""One read of a game's new events per API process, however many streams follow that game.

Every stream of a game wakes on the same NOTIFY. Left alone, each would read the store and
render each event itself: a table with 100 spectators would cost 100 reads and 100 renders per
event. A `GameFeed` keeps the game's recent events and their SSE text per viewer; the first
stream to find it stale reads the store (holding the feed's lock, so the others wait for that
one read and then use it).

Staleness is known from the notifier: each NOTIFY for a game bumps its generation, and a feed
read at generation g is current while the generation is still g. That is only true while the
notifier listens; when it does not, every read goes to the store, as before feeds existed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from uuid import UUID

from api.rendering import render_event
from domain.table import Table
from events.queries import Queries
from events.records import StoredEvent

KEEP = 256  # recent events a feed holds; a stream further behind reads the store itself
MAX_FEEDS = 2048  # games with a feed per process; the least recently read are dropped first


def sse_event(event: dict) -> str:
    data = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event['version']}\nevent: {event['type']}\ndata: {data}\n\n"


@dataclass
class Reading:
    """What a stream gets: events after its position as (version, SSE text for its viewer), and
    whether the game has more waiting (True), none yet (False) or is over (None)."""

    events: list[tuple[int, str]]
    more: bool | None


@dataclass
class _Snapshot:
    generation: object
    events: list[StoredEvent]  # dense: the game's events up to `held`
    table: Table
    latest: int  # the game's version when read; `held` < `latest` after a partial read
    rendered: dict[tuple[int, int | None], str] = field(default_factory=dict)

    @property
    def held(self) -> int:
        return self.events[-1].version if self.events else self.latest

    def covers(self, after: int) -> bool:
        first = self.events[0].version if self.events else self.latest + 1
        return first - 1 <= after <= self.held

    def answers(self, after: int, generation: object) -> bool:
        """Everything after `after` is here: nothing new was notified, nothing left unread."""
        complete = self.held == self.latest or after < self.held
        return self.generation == generation and complete and self.covers(after)


class GameFeed:
    def __init__(self, game_id: UUID, queries: Queries, batch: int) -> None:
        self._game_id = game_id
        self._queries = queries
        self._batch = batch
        self._lock = threading.Lock()
        self._snapshot: _Snapshot | None = None

    def read(self, after: int, viewer: int | None, generation: object | None) -> Reading:
        """Events after `after` for `viewer`. `generation`: the notifier's generation for this
        game, taken before this call; None when the notifier is not listening."""
        if generation is None:  # no notifications, so no way to know a feed is current
            return self._read_store(after, viewer)
        with self._lock:
            snapshot = self._current(after, generation)
        if snapshot is None:  # behind the feed's window: straight from the store
            return self._read_store(after, viewer)
        events = [e for e in snapshot.events if e.version > after][: self._batch]
        rendered = [self._render(snapshot, e, viewer) for e in events]
        last = events[-1].version if events else after
        return Reading(rendered, _more(last, snapshot.latest, snapshot.table))

    def _current(self, after: int, generation: object) -> _Snapshot | None:
        old = self._snapshot
        if old is not None and old.answers(after, generation):
            return old
        extend = old is not None and old.covers(after)
        if not extend and old is not None and after < old.held:
            return None  # an old position: not worth replacing the live window for
        since = old.held if extend and old is not None else after
        stored, table, latest = self._queries.events_then_game(self._game_id, since, self._batch)
        kept = old.events if extend and old is not None else []
        rendered = old.rendered if extend and old is not None else {}
        if table.status == "finished" and (old is None or old.table.status != "finished"):
            rendered = {}  # once it is over, every event is shown in full
        events = (kept + stored)[-KEEP:]
        if events and rendered:  # forget renders of events that left the window
            first = events[0].version
            rendered = {key: shown for key, shown in rendered.items() if key[0] >= first}
        self._snapshot = _Snapshot(generation, events, table, latest, rendered)
        return self._snapshot if self._snapshot.covers(after) else None

    def _render(
        self, snapshot: _Snapshot, stored: StoredEvent, viewer: int | None
    ) -> tuple[int, str]:
        key = (stored.version, viewer)
        shown = snapshot.rendered.get(key)
        if shown is None:
            shown = sse_event(render_event(snapshot.table, stored, viewer))
            snapshot.rendered[key] = shown
        return stored.version, shown

    def _read_store(self, after: int, viewer: int | None) -> Reading:
        stored, table, version = self._queries.events_then_game(self._game_id, after, self._batch)
        events = [(e.version, sse_event(render_event(table, e, viewer))) for e in stored]
        last = stored[-1].version if stored else after
        return Reading(events, _more(last, version, table))


def _more(last: int, version: int, table: Table) -> bool | None:
    if last < version:
        return True
    return None if table.status == "finished" else False


class Feeds:
    """The feeds of one API process, bounded by `MAX_FEEDS` (least recently read dropped)."""

    def __init__(self, queries: Queries, batch: int) -> None:
        self._queries = queries
        self._batch = batch
        self._lock = threading.Lock()
        self._feeds: OrderedDict[UUID, GameFeed] = OrderedDict()

    def of(self, game_id: UUID) -> GameFeed:
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = GameFeed(game_id, self._queries, self._batch)
                while len(self._feeds) > MAX_FEEDS:
                    self._feeds.popitem(last=False)
            else:
                self._feeds.move_to_end(game_id)
            return feed
