"""The deliveries on their way out, as the workers move them: each endpoint's next due delivery
handed to RQ, deliveries RQ lost handed again, attempts made (sending.py), old ones deleted.

The workers hand deliveries to RQ through an `enqueue` callback inside the transaction that
marks them handed out: if RQ refuses them, nothing is marked and they wait for the next pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from events.postgres import webhooks
from events.postgres.connections import Pool
from events.sealing import Sealer
from events.webhooks.records import DueDelivery
from events.webhooks.sending import Pace, deliver

Enqueue = Callable[[Sequence[DueDelivery]], None]


class Outgoing:
    def __init__(self, pool: Pool, sealer: Sealer) -> None:
        self._pool = pool
        self._sealer = sealer  # opens the endpoints' secrets, to sign with them

    def hand_out(self, places: int, limit: int, spacing_seconds: float, enqueue: Enqueue) -> int:
        """Hands `enqueue` each endpoint's next due delivery (webhooks.claim_due): at most
        `limit`, and no more than `places` less those already in RQ; returns how many."""
        with self._pool.connection() as conn, conn.transaction():
            room = min(limit, places - webhooks.in_flight(conn))
            if room <= 0:
                return 0
            due = webhooks.claim_due(conn, room, spacing_seconds)
            enqueue(due)
        return len(due)

    def hand_out_lost(self, older_than_seconds: float, enqueue: Enqueue) -> int:
        """Hands `enqueue` again the deliveries handed out longer ago than N seconds that no
        job holds (Redis lost the job, a worker died with it); returns how many."""
        with self._pool.connection() as conn, conn.transaction():
            lost = webhooks.stale(conn, older_than_seconds)
            enqueue(lost)
        return len(lost)

    def deliver(self, pace: Pace, delivery_id: int, failures: int) -> str:
        """Attempt `failures + 1` of the delivery (sending.py `deliver`)."""
        return deliver(self._pool, self._sealer, pace, delivery_id, failures)

    def purge(self, older_than_seconds: float) -> int:
        """Deletes finished deliveries and attempts older than N seconds."""
        with self._pool.connection() as conn, conn.transaction():
            return webhooks.purge(conn, older_than_seconds)
