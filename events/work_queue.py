"""The work waiting for the workers, as they and the health checks see it: outbox rows handed
to RQ fairly between the tables' creators (events/postgres/fair_work.py), work handed out but
never finished, what the jobs used, and turn timers that have run out.

The workers hand rows to RQ through `enqueue` callbacks inside the transaction that marks
them handed out: if RQ refuses one, nothing is marked and the rows wait for the next pass.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from events.outbox import OutboxItem
from events.postgres import fair_work, idempotency, outbox, turn_timers
from events.postgres.connections import Pool

USAGE_KEPT_SECONDS = 86400.0  # a creator's usage decays to nothing long before a day


class WorkQueue:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    def hand_out(self, places: int, limit: int, enqueue: Callable[[OutboxItem], None]) -> int:
        """Hands `enqueue` the next waiting rows, in turns between creators: at most `limit`,
        and no more than `places` less the rows already in RQ; returns how many."""
        with self._pool.connection() as conn, conn.transaction():
            room = min(limit, places - fair_work.in_flight(conn))
            if room <= 0:
                return 0
            rows = fair_work.claim_fairly(conn, room)
            for row in rows:
                enqueue(row)
            outbox.mark_enqueued(conn, [row.id for row in rows])
        return len(rows)

    def hand_out_stale(
        self, older_than_seconds: float, enqueue: Callable[[OutboxItem], None]
    ) -> int:
        """Hands `enqueue` again the rows handed out longer ago than N seconds and not done
        (Redis lost them, a worker died); returns how many."""
        with self._pool.connection() as conn, conn.transaction():
            rows = outbox.stale(conn, older_than_seconds)
            for row in rows:
                enqueue(row)
            outbox.mark_enqueued(conn, [row.id for row in rows])
        return len(rows)

    def waiting(self) -> bool:
        """Whether some row waits to be handed out."""
        with self._pool.connection() as conn:
            return fair_work.waiting(conn)

    def job_finished(self, game_id: UUID, seconds: float) -> None:
        """Adds a job's time to its table's creator's usage, and wakes the relay."""
        with self._pool.connection() as conn:
            fair_work.job_finished(conn, game_id, seconds)

    def age(self, game_id: UUID, version: int, kind: str) -> float | None:
        """Seconds since the work's row was written, by the database's clock (None: no row)."""
        with self._pool.connection() as conn:
            return outbox.age(conn, game_id, version, kind)

    def lag(self, timeout: float) -> tuple[float, int]:
        """(Seconds since the oldest unfinished row was written, 0 for none; unfinished rows),
        waiting at most `timeout` seconds for a connection."""
        with self._pool.connection(timeout=timeout) as conn:
            return outbox.lag(conn)

    def purge(self, done_older_than_seconds: float) -> tuple[int, int]:
        """Deletes Idempotency-Keys past their 24 hours, rows done longer ago than N seconds,
        and creators' usage unused for a day; (keys, rows) deleted."""
        with self._pool.connection() as conn, conn.transaction():
            keys = idempotency.purge_expired(conn)
            done = outbox.purge_done(conn, older_than_seconds=done_older_than_seconds)
            fair_work.purge_usage(conn, USAGE_KEPT_SECONDS)
        return keys, done

    def due_timers(self, limit: int) -> list[tuple[UUID, int, int]]:
        """(game, seat, since) of the turns that have run out, the most overdue first."""
        with self._pool.connection() as conn:
            return turn_timers.due(conn, limit)
