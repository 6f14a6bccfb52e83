"""The matcher's thread in each full worker process: a pass over the queue about once a second
(MATCH_INTERVAL_SECONDS), seating every table the queue allows (events/matchmaking/matcher.py).
Several worker processes each run one; their passes never seat a player twice."""

from __future__ import annotations

import logging
import threading
import time

from workers import context

log = logging.getLogger("cardroom.matcher")
RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # seconds before trying again after a failure


def match_forever(stop: threading.Event, every: float | None = None) -> None:
    """Passes until stopped, one starting every `every` seconds (a pass that took longer is
    followed by the next at once). While the database is unreachable it tries again after
    0.5 s, doubling to 10 s, rather than logging a failure every second."""
    every = context.settings().match_interval_seconds if every is None else every
    delay = RETRY_FIRST
    while not stop.is_set():
        started = time.monotonic()
        try:
            context.cardroom().matcher.run_once()
        except Exception as error:
            log.warning(
                "a matchmaking pass failed (%s: %s); retrying in %.1f s",
                type(error).__name__,
                error,
                delay,
                exc_info=delay == RETRY_FIRST,  # the whole trace once per outage
            )
            stop.wait(delay)
            delay = min(RETRY_MAX, delay * 2)
            continue
        if delay > RETRY_FIRST:
            log.warning("matchmaking works again")
            delay = RETRY_FIRST
        stop.wait(max(0.0, every - (time.monotonic() - started)))
