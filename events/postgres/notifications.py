"""Wake-ups on Postgres (events/wakeups.py): LISTEN connections for the workers' loops, and one
LISTEN connection per process fanning a channel's notifications out to waiters.

The store NOTIFYs `game_events` with the game id (and its first new version) when an append
commits. A dispatcher thread holds its own connection (never one of the pool's) and sets the
Event of every subscription to that game. A notification is only a hint: a waiter re-reads the
store when woken, and polls on its own timeout anyway, faster while the listener is down (see
`poll_timeout`).
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

import psycopg
from psycopg.rows import TupleRow

from events.postgres.db import fetch_value
from events.wakeups import GAME_CHANNEL, ListenerLost, Wakeup, game_of

log = logging.getLogger("cardroom.notifications")
RECONNECT_SECONDS = 0.5  # before opening the LISTEN connection again, doubling while it fails
RECONNECT_MAX_SECONDS = 5.0


class Subscription:
    """A waiter on one game: `wait` returns True when woken by a notification."""

    def __init__(self, notifier: GameNotifier, game_id: UUID) -> None:
        self.game_id = game_id
        self.woken = threading.Event()
        self._notifier = notifier

    def wait(self, timeout: float) -> bool:
        # Cleared before the caller re-reads, so a commit after that read still wakes it.
        woken = self.woken.wait(timeout)
        self.woken.clear()
        return woken

    def close(self) -> None:
        self._notifier.unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GameNotifier:
    """Started lazily by the first subscription, so processes that never stream hold no
    listening connection."""

    def __init__(
        self,
        database_url: str,
        fallback_poll_seconds: float = 1.0,
        channel: str = GAME_CHANNEL,
    ) -> None:
        """`channel`: the one NOTIFYed with the ids waited on (games, or players' notices)."""
        self._url = database_url
        self._channel = channel
        self._fallback = fallback_poll_seconds
        self._lock = threading.Lock()
        self._waiters: dict[UUID, set[Subscription]] = {}
        # Per followed game, a value that changes at each of its notifications (and is never
        # reused: drawn from one counter), so a cache read at one generation knows it is current.
        self._generations: dict[UUID, int] = {}
        self._counter = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while the LISTEN connection is up
        self._failing = False  # the connection broke or could not be opened since it last worked

    def subscribe(self, game_id: UUID) -> Subscription:
        subscription = Subscription(self, game_id)
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(subscription)
            self._generations.setdefault(game_id, next(self._counter))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="game-notifier", daemon=True)
                self._thread.start()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            waiters = self._waiters.get(subscription.game_id)
            if waiters is not None:
                waiters.discard(subscription)
                if not waiters:
                    del self._waiters[subscription.game_id]
                    self._generations.pop(subscription.game_id, None)

    def generation(self, game_id: UUID) -> int | None:
        """The game's current generation, or None while not listening (nothing is known)."""
        if not self.listening.is_set():
            return None
        with self._lock:
            return self._generations.get(game_id)

    def poll_timeout(self, heartbeat: float) -> float:
        """How long a waiter may sleep before re-reading on its own."""
        return heartbeat if self.listening.is_set() else min(heartbeat, self._fallback)

    def close(self) -> None:
        """Stops listening; open streams end at their next wake-up."""
        self._stop.set()
        self._wake(None)

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def _wake(self, game_id: UUID | None) -> None:
        """Wake the waiters of one game, or of every game (None: after a gap in listening)."""
        with self._lock:
            games = list(self._waiters) if game_id is None else [game_id]
            targets = [s for game in games for s in self._waiters.get(game, ())]
            for game in games:
                if game in self._generations:
                    self._generations[game] = next(self._counter)
        for subscription in targets:
            subscription.woken.set()

    def _run(self) -> None:
        delay = RECONNECT_SECONDS
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as error:  # the connection broke: waiters poll until it is back
                if self._database_gone(error):
                    self._end_quietly(error)
                    return
                if self.listening.is_set():  # it had worked: a new outage, the first delay
                    delay = RECONNECT_SECONDS
                log.warning(
                    "listening for %s failed (%s: %s); retrying in %.1f s",
                    self._channel,
                    type(error).__name__,
                    error,
                    delay,
                )
            self._failing = True
            self.listening.clear()
            self._wake(None)
            self._stop.wait(delay)
            delay = min(RECONNECT_MAX_SECONDS, delay * 2)

    def _database_gone(self, error: Exception) -> bool:
        """Whether the database itself is gone (dropped, as a test's is at its end): this
        connection could not be opened for it, or it broke and a new one cannot be."""
        if _missing_database(error):
            return True
        if not self.listening.is_set():
            return False
        try:  # it broke while listening: a dropped database ends its connections so too
            psycopg.connect(self._url, connect_timeout=5).close()
        except psycopg.Error as probe:
            return _missing_database(probe)
        return False

    def _end_quietly(self, error: Exception) -> None:
        """Nothing is left to listen to and no one to tell (it was dropped on purpose): the
        waiters poll from now on; a later subscription starts a listener again."""
        log.debug("listening for %s ends: its database is gone (%s)", self._channel, error)
        self.listening.clear()
        self._wake(None)
        with self._lock:
            self._thread = None

    def _listen(self) -> None:
        with psycopg.connect(self._url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"LISTEN {self._channel}")
            if self._failing:
                log.warning("listening for %s again", self._channel)
                self._failing = False
            self.listening.set()
            self._wake(None)  # anything committed before LISTEN took effect is read now
            while not self._stop.is_set():
                for note in conn.notifies(timeout=1.0):
                    game_id = game_of(note.payload)
                    if game_id is not None:
                        self._wake(game_id)


def _missing_database(error: Exception) -> bool:
    """The server refused the connection for a database that does not exist. No SQLSTATE
    reaches the client before a session starts: the server's message is all there is."""
    return isinstance(error, psycopg.OperationalError) and bool(
        re.search(r'database ".*" does not exist', str(error))
    )


class PostgresListener:
    """A LISTEN connection of its own (never one of the pool's), as events/wakeups.py's
    `Listener`."""

    def __init__(self, conn: psycopg.Connection[TupleRow]) -> None:
        self._conn = conn

    def wakeups(self, timeout: float, stop_after: int | None = None) -> Iterator[Wakeup]:
        try:
            for note in self._conn.notifies(timeout=timeout, stop_after=stop_after):
                yield Wakeup(note.channel, note.payload)
        except psycopg.Error as error:
            raise ListenerLost(type(error).__name__) from error

    def try_lock(self, key: int) -> bool:
        """A session-level advisory lock: held until this connection closes."""
        return bool(fetch_value(self._conn, "SELECT pg_try_advisory_lock(%s)", (key,)))


@contextmanager
def listening(database_url: str, *channels: str) -> Iterator[PostgresListener]:
    """A connection listening on the channels, closed on leaving; ListenerLost (naming the
    driver's error) when it cannot be opened or breaks."""
    try:
        with psycopg.connect(database_url, autocommit=True, connect_timeout=5) as conn:
            for channel in channels:
                conn.execute(f"LISTEN {channel}")
            yield PostgresListener(conn)
    except psycopg.Error as error:
        raise ListenerLost(type(error).__name__) from error
