"""A worker thread's loop for periodic work (turn timers, the matcher): one pass every so often,
and while a pass fails (the database unreachable) a retry after 0.5 s doubling to 10 s, so an
outage logs a few lines rather than one per pass."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # seconds before trying again after a failure


def repeat(
    stop: threading.Event, once: Callable[[], object], every: float, what: str, log: logging.Logger
) -> None:
    """Runs `once` until stopped, a pass starting every `every` seconds (one that took longer is
    followed by the next at once). `what` names the work in the log lines."""
    delay = RETRY_FIRST
    while not stop.is_set():
        started = time.monotonic()
        try:
            once()
        except Exception as error:
            log.warning(
                "%s failed (%s: %s); retrying in %.1f s",
                what,
                type(error).__name__,
                error,
                delay,
                exc_info=delay == RETRY_FIRST,  # the whole trace once per outage
            )
            stop.wait(delay)
            delay = min(RETRY_MAX, delay * 2)
            continue
        if delay > RETRY_FIRST:
            log.warning("%s works again", what)
            delay = RETRY_FIRST
        stop.wait(max(0.0, every - (time.monotonic() - started)))
