"""The log appender: appends each finished game to the public log (events/public_log.py) within
a second or two of its end, a batch of games and its signed checkpoint per transaction.

Woken by the games' NOTIFY (any commit: the queue of finished games is one index read), or
every POLL_SECONDS without one. One appender at a time (a Postgres advisory lock on its
listening connection; the others wait to take over, as the stream publisher's do). Nothing
rests on that lock for the tree's sake: each append also takes a transaction lock, and a
leaf's index and game are unique, so two appenders at once could never fork the tree.
"""

from __future__ import annotations

import logging
import threading

from events.public_log import APPEND_BATCH
from events.wakeups import GAME_CHANNEL, Listener, ListenerLost
from workers import context

log = logging.getLogger("cardroom.log_appender")
LOCK = 0x4C4F_4757_524B  # the advisory lock the active appender holds ("LOGWRK")
STANDBY_SECONDS = 2.0  # another appender holds the lock: try again after this long
POLL_SECONDS = 1.0  # at the latest, without a notification
GATHER_SECONDS = 0.2  # games that end together are appended (and signed) together
RETRY_FIRST, RETRY_MAX = 0.5, 10.0


def append_forever(stop: threading.Event) -> None:
    """Appends until stopped, while it holds the lock; stands by while another does."""
    delay = RETRY_FIRST
    while not stop.is_set():
        try:
            with context.cardroom().listen(GAME_CHANNEL) as listener:
                if not listener.try_lock(LOCK):
                    stop.wait(STANDBY_SECONDS)
                    continue
                log.info("appending finished games to the public log")
                delay = RETRY_FIRST
                _append_while_listening(listener, stop)
        except ListenerLost as error:
            log.warning("the appender's connection failed (%s); again in %.1f s", error, delay)
            stop.wait(delay)
            delay = min(RETRY_MAX, delay * 2)


def _append_while_listening(listener: Listener, stop: threading.Event) -> None:
    public_log = context.cardroom().public_log
    while not stop.is_set():
        try:
            while public_log.append_pending() == APPEND_BATCH:
                pass  # a backlog (a backfill, or a pause): the next batch at once
        except Exception:  # the database away: the queue keeps the games until it is back
            log.exception("appending to the public log failed; trying again")
            stop.wait(RETRY_FIRST)
        if list(listener.wakeups(timeout=POLL_SECONDS, stop_after=1)):
            list(listener.wakeups(timeout=GATHER_SECONDS))
