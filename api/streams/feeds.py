"""One read of a game's new events per API process, however many streams follow that game.

Every stream of a game wakes on the same NOTIFY. Left alone, each would read the store and
render each event itself: a table with 100 spectators would cost 100 reads and 100 renders per
event. A `GameFeed` keeps the game's recent events and their SSE text per viewer; the first
stream to find it stale reads the store (holding the feed's lock, so the others wait for that
one read and then use it).

Staleness is known from the notifier: each NOTIFY for a game bumps its generation, and a feed
read at generation g is current while the generation is still g. That is only true while the
notifier listens; when it does not, streams poll, and a read is current for POLL_SHARE_SECONDS:
the polls of a game's streams within that time share it.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

from domain.tables.table import Table
from events.event_text import event_json, sse_message
from events.queries import Queries
from events.records import StoredEvent

# Events a feed holds from before its latest read (each with its render per viewer), beside
# all that read brought. Live streams follow the head; one further behind (a resuming client)
# is served from the read that found it so, rendered for it alone. A larger window mostly holds
# games' pasts in memory: with 200 live games, windows of 64 events each grow an API worker's
# memory for minutes.
KEEP = 16
RECENT_FEEDS = 16  # feeds kept after their last stream ended (a client reconnecting soon)
# While the notifier is not listening, streams poll (every second or so): reads within this
# long of each other share one read, or an outage would turn every stream's poll into a read.
POLL_SHARE_SECONDS = 0.25


@dataclass
class Reading:
    """What a stream gets: events after its position as (version, SSE text for its viewer),
    whether the game has more waiting (True), none yet (False) or is over (None), and the
    credentials (seat tokens' hashes) that may still watch as a seat, as of those events."""

    events: list[tuple[int, str]]
    more: bool | None
    credentials: frozenset[str] = frozenset()

    def ends(self, credential: str | None) -> bool:
        """Whether a stream opened with `credential` must end now, before anything more is sent
        on it: its token was rotated or revoked (the seat left, or timed out for good).
        Spectators (no credential) watch on."""
        return credential is not None and credential not in self.credentials


@dataclass
class _Snapshot:
    generation: object
    events: list[StoredEvent]  # dense: the game's events up to `held`
    table: Table
    latest: int  # the game's version when read; `held` < `latest` after a partial read
    credentials: frozenset[str]  # the seat tokens' hashes when read
    rendered: dict[tuple[int, int | None], str] = field(default_factory=dict)
    finished: bool = field(init=False)

    def __post_init__(self) -> None:
        self.finished = self.table.status == "finished"  # asked by every stream that reads

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
    def __init__(
        self,
        game_id: UUID,
        queries: Queries,
        batch: int,
        keep: int = KEEP,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._game_id = game_id
        self._clock = clock
        self._queries = queries
        self._batch = batch
        self._keep = keep
        self._lock = threading.Lock()
        self._snapshot: _Snapshot | None = None

    def read(self, after: int, viewer: int | None, generation: object | None) -> Reading:
        """Events after `after` for `viewer`. `generation`: the notifier's generation for this
        game, taken before this call; None when the notifier is not listening."""
        if generation is None:  # nothing notified: a read is current for a moment only
            generation = ("polled", int(self._clock() // POLL_SHARE_SECONDS))
        with self._lock:
            snapshot = self._current(after, generation)
        if snapshot is None:  # behind the feed's window: straight from the store
            return self._read_store(after, viewer)
        events = [e for e in snapshot.events if e.version > after][: self._batch]
        rendered = [self._render(snapshot, e, viewer) for e in events]
        last = events[-1].version if events else after
        more = _more(last, snapshot.latest, snapshot.finished)
        return Reading(rendered, more, snapshot.credentials)

    def _current(self, after: int, generation: object) -> _Snapshot | None:
        old = self._snapshot
        if old is not None and old.answers(after, generation):
            return old
        extend = old is not None and old.covers(after)
        if not extend and old is not None and after < old.held:
            return None  # an old position: not worth replacing the live window for
        since = old.held if extend and old is not None else after
        stored, table, latest, credentials = self._queries.events_then_game(
            self._game_id, since, self._batch
        )
        kept = old.events if extend and old is not None else []
        rendered = old.rendered if extend and old is not None else {}
        if table.status == "finished" and (old is None or not old.finished):
            rendered = {}  # once it is over, every event is shown in full
        # The new events all stay, however many a burst brought (a deal is a dozen): every
        # stream that was at the window's head is still covered, so a game's hundred streams
        # share this read rather than each going to the store. Older ones beyond `keep` go.
        events = kept[-self._keep :] + stored if extend else stored[-self._keep :]
        if events and rendered:  # forget renders of events that left the window
            first = events[0].version
            rendered = {key: shown for key, shown in rendered.items() if key[0] >= first}
        self._snapshot = _Snapshot(generation, events, table, latest, credentials, rendered)
        if self._snapshot.covers(after):
            return self._snapshot
        # This stream is further behind than the window: what was just read serves it once
        # (rendered for it alone), rather than a second read of the store.
        return _Snapshot(generation, kept + stored, table, latest, credentials, {})

    def sizes(self) -> tuple[int, int]:
        """(events held, renders held): for tests and debugging."""
        snapshot = self._snapshot
        return (0, 0) if snapshot is None else (len(snapshot.events), len(snapshot.rendered))

    def _render(
        self, snapshot: _Snapshot, stored: StoredEvent, viewer: int | None
    ) -> tuple[int, str]:
        key = (stored.version, viewer)
        shown = snapshot.rendered.get(key)
        if shown is None:
            shown = sse_message(event_json(snapshot.table, stored, viewer))
            snapshot.rendered[key] = shown
        return stored.version, shown

    def _read_store(self, after: int, viewer: int | None) -> Reading:
        read = self._queries.events_then_game(self._game_id, after, self._batch)
        stored, table = read.events, read.table
        events = [(e.version, sse_message(event_json(table, e, viewer))) for e in stored]
        last = stored[-1].version if stored else after
        more = _more(last, read.version, table.status == "finished")
        return Reading(events, more, read.credentials)


def _more(last: int, version: int, finished: bool) -> bool | None:
    if last < version:
        return True
    return None if finished else False


class Feeds:
    """The feeds of one API process. A stream holds its game's feed while it is open, so the
    registry holds feeds weakly: a feed lives while a stream of its game is open, plus while it
    is among the `recent` last asked for (strongly held, least recently asked dropped first).
    So the feeds alive are bounded by the open streams (MAX_STREAMS) plus `recent`, however
    many games a process streamed since it started, and every stream of a game open at once
    shares one feed."""

    def __init__(
        self, queries: Queries, batch: int, recent: int = RECENT_FEEDS, keep: int = KEEP
    ) -> None:
        self._queries = queries
        self._batch = batch
        self._keep = keep
        self._capacity = recent
        self._lock = threading.Lock()
        self._live: weakref.WeakValueDictionary[UUID, GameFeed] = weakref.WeakValueDictionary()
        self._recent: OrderedDict[UUID, GameFeed] = OrderedDict()

    def of(self, game_id: UUID) -> GameFeed:
        with self._lock:
            feed = self._live.get(game_id)
            if feed is None:
                feed = GameFeed(game_id, self._queries, self._batch, self._keep)
                self._live[game_id] = feed
            self._recent[game_id] = feed
            self._recent.move_to_end(game_id)
            while len(self._recent) > self._capacity:
                self._recent.popitem(last=False)
            return feed

    def sizes(self) -> tuple[int, int]:
        """(feeds alive, of which kept as recent): for tests and debugging."""
        with self._lock:
            return len(self._live), len(self._recent)
