"""The matcher's thread in each full worker process: a pass over the queue about once a second
(MATCH_INTERVAL_SECONDS), seating every table the queue allows (events/matchmaking/matcher.py).
Several worker processes each run one; their passes never seat a player twice."""

from __future__ import annotations

import logging
import threading

from workers import context, periodic

log = logging.getLogger("cardroom.matcher")


def match_forever(stop: threading.Event, every: float | None = None) -> None:
    """Passes until stopped, one starting every `every` seconds (MATCH_INTERVAL_SECONDS)."""
    every = context.settings().match_interval_seconds if every is None else every
    periodic.repeat(stop, lambda: context.cardroom().matcher.run_once(), every, "matchmaking", log)
