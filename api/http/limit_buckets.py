"""Limits counted by hand, where a view's limit (one count per request, decided before the view
runs) cannot tell what the request turns out to be:

- a read that does real work: an audit that is not kept yet (it re-decides every event, about
  100 ms of CPU for a long game) or an export. It counts once more, in the costly-reads bucket
  of its token and of its address, whose limits are far smaller than a view's;
- a credential that resolves to nothing (a 401): it counts against its address. Otherwise a
  fresh random bearer on every request would go to a fresh per-token bucket and never be
  limited. Past the limit, every request of that address that carries a credential is 429
  until the window ends, before any work; the process remembers the address until then, so
  that refusing it costs no round trip;
- a table of bots alone, which only costs worker time: one created as such, and one whose last
  human leaves within YOUNG_TABLE_SECONDS of its creation (creating a table with one human and
  leaving at once got round this quota). Both count against the table's creator, checked
  before and counted once done, so a refused body costs nothing. One whose last human is
  timed out that soon counts too, counted by the worker that timed it out (the rule and its
  keys: events/operations/bot_tables.py);
- a matchmaking queue join, per player: checked before and counted once the player waits, so
  a refused body, or a join while already waiting, costs nothing.

Counted in the same Redis as the view limits (flask-limiter's storage, with its in-memory
fallback); a Redis outage degrades these limits, it never fails a request.
"""

from __future__ import annotations

import logging
import math
import time

from flask import Flask, Response
from flask_limiter import Limiter
from limits import RateLimitItem, parse_many

from api.http.limit_keys import bears_credential, client_address
from api.http.problems import Problem
from events.operations import bot_tables, metrics
from events.operations.settings import Settings

log = logging.getLogger("cardroom.limits")
EXTENSION = "cardroom_buckets"


class Buckets:
    def __init__(self, limiter: Limiter, settings: Settings) -> None:
        self._limiter = limiter
        self._costly_per_token = parse_many(settings.rate_limit_costly_reads)
        self._costly_per_address = parse_many(settings.rate_limit_costly_reads_per_address)
        self._unresolved = parse_many(settings.rate_limit_unresolved_per_address)
        self._bot_tables = parse_many(settings.rate_limit_create_bots)
        self._queue_joins = parse_many(settings.rate_limit_queue_joins)
        self._prefix = bot_tables.bucket_prefix(settings)  # the workers count bot tables too
        self._refused_until: dict[str, float] = {}  # address -> time.time() its window ends

    def charge_costly_read(self, token: str | None, address: str) -> None:
        """Counts a read that does real work; 429 once its token or address is over."""
        owners = [("costly-address", address, self._costly_per_address)]
        if token:
            owners.append(("costly-token", token, self._costly_per_token))
        for scope, owner, items in owners:
            wait = self._hit(scope, owner, items)
            if wait is not None:
                metrics.RATE_LIMITED.labels(scope).inc()
                raise Problem(
                    "rate-limited",
                    f"over the limit of reads that do real work (audits, exports); retry in"
                    f" {wait} s",
                    retry_after=wait,
                )

    def note_unresolved(self, address: str) -> None:
        """Counts a credential that resolved to nothing against its address."""
        wait = self._hit("unresolved", address, self._unresolved)
        if wait is not None:
            self._refused_until[address] = time.time() + wait
            metrics.RATE_LIMITED.labels("unresolved-credentials").inc()

    def check_bot_table(self, creator: str) -> None:
        """429 when the creator has no table of bots alone left in its quota."""
        self._check(bot_tables.SCOPE, creator, self._bot_tables, "create-bots",
                    "for tables of bots alone (a table left to its bots soon after its"
                    " creation counts as one)")  # fmt: skip

    def check_queue_join(self, player: str) -> None:
        """429 when the player has no queue join left in its quota."""
        self._check("queue-joins", player, self._queue_joins, "queue-joins", "for queue joins")

    def count_queue_join(self, player: str) -> None:
        self._hit("queue-joins", player, self._queue_joins)

    def _check(
        self, scope: str, owner: str, items: list[RateLimitItem], metric: str, what: str
    ) -> None:
        """429 when `owner` has nothing left of one of `items`; counts nothing."""
        strategy = self._limiter.limiter
        try:
            for item in items:
                if not strategy.test(item, self._prefix, scope, owner):
                    reset = strategy.get_window_stats(item, self._prefix, scope, owner)
                    wait = max(1, math.ceil(reset[0] - time.time()))
                    metrics.RATE_LIMITED.labels(metric).inc()
                    raise Problem(
                        "rate-limited",
                        f"over the limit of {item} {what}; retry in {wait} s",
                        retry_after=wait,
                    )
        except Problem:
            raise
        except Exception as error:
            log.warning("rate limit storage unavailable: %s", type(error).__name__)

    def count_bot_table(self, creator: str) -> None:
        self._hit(bot_tables.SCOPE, creator, self._bot_tables)

    def refuse_if_over(self, address: str) -> None:
        """429 for a credential from an address over its limit of unresolved ones."""
        until = self._refused_until.get(address)
        if until is None:
            return
        wait = until - time.time()
        if wait <= 0:
            del self._refused_until[address]
            return
        raise Problem(
            "rate-limited",
            "too many requests from this address carried credentials that are not valid;"
            f" retry in {math.ceil(wait)} s",
            retry_after=math.ceil(wait),
        )

    def _hit(self, scope: str, owner: str, items: list[RateLimitItem]) -> int | None:
        """Counts one against each item; the seconds to wait if one is over, else None."""
        strategy = self._limiter.limiter
        try:
            for item in items:
                if not strategy.hit(item, self._prefix, scope, owner):
                    reset = strategy.get_window_stats(item, self._prefix, scope, owner)[0]
                    return max(1, math.ceil(reset - time.time()))
        except Exception as error:  # the storage is unreachable: not counted meanwhile
            log.warning("rate limit storage unavailable: %s", type(error).__name__)
        return None


def install_buckets(app: Flask, limiter: Limiter, settings: Settings) -> None:
    """The buckets, and the hooks that count and refuse unresolved credentials."""
    buckets = Buckets(limiter, settings)
    app.extensions[EXTENSION] = buckets

    def refuse_over_limit() -> None:
        if bears_credential():
            buckets.refuse_if_over(client_address())

    def count_unresolved(response: Response) -> Response:
        if response.status_code == 401 and bears_credential():
            buckets.note_unresolved(client_address())
        return response

    app.before_request(refuse_over_limit)
    app.after_request(count_unresolved)


def buckets_of(app: Flask) -> Buckets | None:
    """None when rate limits are off."""
    return app.extensions.get(EXTENSION)
