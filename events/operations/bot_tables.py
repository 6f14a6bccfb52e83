"""Tables of bots alone, which cost only worker time, against their creator's quota: one made
so, and one left to its bots soon after its creation, whether its last human left (the API
counts that one) or was timed out (the workers' turn timers count that one). A table with one
human who leaves at once, or who never acts on a short timer, was a way round the quota.

The quota is counted in Redis under the keys the API's own buckets use
(api/http/limit_buckets.py), so both count against one quota."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from events.operations.settings import Settings

log = logging.getLogger("cardroom.limits")
YOUNG_TABLE_SECONDS = 120.0  # a table left to its bots this soon counts as a table of bots
SCOPE = "bot-tables"


def bucket_prefix(settings: Settings) -> str:
    """The prefix of the buckets counted by hand (one namespace per queue, as the limits)."""
    return f"{settings.queue_name}-buckets"


def young(created_at: datetime, now: datetime) -> bool:
    """Whether a table created then, left to its bots now, counts as a table of bots."""
    return now - created_at < timedelta(seconds=YOUNG_TABLE_SECONDS)


class BotTableCounter:
    """Counts tables of bots alone against their creators, outside a request (the workers);
    as the API's limits, in fixed windows, and never failing the caller: while Redis is
    unreachable nothing is counted."""

    def __init__(self, settings: Settings) -> None:
        self._enabled = settings.rate_limits.strip().lower() != "off"
        self._items = parse_many(settings.rate_limit_create_bots)
        self._prefix = bucket_prefix(settings)
        storage = storage_from_string(
            settings.redis_url or "memory://", socket_timeout=1, socket_connect_timeout=1
        )
        self._strategy = FixedWindowRateLimiter(storage)

    def count(self, creator: str) -> None:
        if not self._enabled:
            return
        try:
            for item in self._items:
                self._strategy.hit(item, self._prefix, SCOPE, creator)
        except Exception as error:  # the storage is unreachable: not counted meanwhile
            log.warning("rate limit storage unavailable: %s", type(error).__name__)
