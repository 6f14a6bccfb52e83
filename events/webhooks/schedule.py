"""When a failed delivery is tried again, and when an endpoint has failed too often.

Pure. The delay doubles from `first` seconds after each failure, up to a ceiling of four hours,
so that with the defaults (5 s, 20 failures) a delivery is tried for more than a day before its
endpoint, failing all that while, is disabled.
"""

from __future__ import annotations

FIRST_DELAY_SECONDS = 5.0
CEILING_SECONDS = 4 * 3600.0
MAX_FAILURES = 20  # in a row, then the endpoint is disabled


def retry_delay(failures: int, first: float = FIRST_DELAY_SECONDS) -> float:
    """Seconds from the `failures`-th failed attempt (1 for the first) to the next attempt."""
    if failures < 1:
        raise ValueError("a retry follows a failure")
    return min(CEILING_SECONDS, first * 2.0 ** min(failures - 1, 60))


def disabled_after(failures_in_a_row: int, limit: int = MAX_FAILURES) -> bool:
    """Whether an endpoint that failed this many times in a row is disabled."""
    return failures_in_a_row >= limit


def retry_span(limit: int = MAX_FAILURES, first: float = FIRST_DELAY_SECONDS) -> float:
    """Seconds from a delivery's first attempt to its last, when every attempt fails: the
    time a receiver may be down and still get it."""
    return sum(retry_delay(failures, first) for failures in range(1, limit))
