"""Webhooks on Postgres: a player's endpoints, the deliveries waiting for each (written with the
notices that cause them: events/postgres/players.py), and the attempts made.

A delivery goes through these states, each change one statement:
- waiting: `enqueued_at` NULL; the relay hands an endpoint's oldest open delivery to RQ once it
  is due, nothing of that endpoint is in flight, and the endpoint's spacing has passed
  (`claim_due`), so an endpoint gets one delivery at a time, in order;
- in flight: a job leases it (`lease`) for the time an attempt may take, sends it, then
  records the attempt (`record`): done, or waiting again until its retry is due;
- lost: in flight for longer than a lease with no job holding it (Redis lost the job, a worker
  died); the sweeper hands it to RQ again (`stale`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from psycopg.rows import class_row

from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_one, fetch_value
from events.wakeups import WEBHOOK_CHANNEL
from events.webhooks.records import (
    LEASE_SECONDS,
    PING,
    AttemptRow,
    DueDelivery,
    EndpointRow,
    LeasedDelivery,
)

_ENDPOINT_COLUMNS = "id, player_id, url, events, enabled, failures, created_at, disabled_at"


def count_of(conn: Connection, player_id: UUID) -> int:
    """The player's endpoints, counted with the player's row locked: two registrations at once
    cannot both pass the limit."""
    conn.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (player_id,))
    query = "SELECT count(*) FROM webhook_endpoints WHERE player_id = %s"
    count: int = fetch_value(conn, query, (player_id,))
    return count


def create(
    conn: Connection,
    endpoint_id: UUID,
    player_id: UUID,
    url: str,
    events: Sequence[str],
    secret_sealed: str,
) -> EndpointRow:
    row = fetch_one(
        conn,
        "INSERT INTO webhook_endpoints (id, player_id, url, events, secret_sealed)"
        f" VALUES (%s, %s, %s, %s, %s) RETURNING {_ENDPOINT_COLUMNS}",
        (endpoint_id, player_id, url, list(events), secret_sealed),
        row_factory=class_row(EndpointRow),
    )
    assert row is not None
    return row


def endpoints_of(conn: Connection, player_id: UUID) -> list[EndpointRow]:
    return fetch_all(
        conn,
        f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE player_id = %s"
        " ORDER BY created_at, id",
        (player_id,),
        row_factory=class_row(EndpointRow),
    )


def endpoint(conn: Connection, player_id: UUID, endpoint_id: UUID) -> EndpointRow | None:
    """The endpoint if it is this player's (another player's is none, as a missing one)."""
    return fetch_one(
        conn,
        f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = %s AND player_id = %s",
        (endpoint_id, player_id),
        row_factory=class_row(EndpointRow),
    )


def delete(conn: Connection, player_id: UUID, endpoint_id: UUID) -> bool:
    """Removes the endpoint, its waiting deliveries and its attempts; False if none was the
    player's."""
    cur = conn.execute(
        "DELETE FROM webhook_endpoints WHERE id = %s AND player_id = %s", (endpoint_id, player_id)
    )
    return cur.rowcount == 1


def add_ping(conn: Connection, player_id: UUID, endpoint_id: UUID) -> UUID | None:
    """A ping for the player's endpoint, queued behind its waiting deliveries; its message id,
    or None if the endpoint is not the player's."""
    message_id: UUID | None = fetch_value(
        conn,
        "INSERT INTO webhook_deliveries (endpoint_id, player_id, kind)"
        " SELECT id, player_id, %s FROM webhook_endpoints WHERE id = %s AND player_id = %s"
        " RETURNING message_id",
        (PING, endpoint_id, player_id),
    )
    if message_id is not None:
        notify_relay(conn)
    return message_id


def attempts_of(conn: Connection, endpoint_id: UUID, limit: int) -> list[AttemptRow]:
    """The endpoint's latest attempts, newest first."""
    return fetch_all(
        conn,
        "SELECT message_id, kind, notice, attempt, at, latency_ms, status, error, answer,"
        " delivered FROM webhook_attempts WHERE endpoint_id = %s ORDER BY id DESC LIMIT %s",
        (endpoint_id, limit),
        row_factory=class_row(AttemptRow),
    )


def notify_relay(conn: Connection) -> None:
    """Wakes the webhook relay at commit (a hint: it polls anyway)."""
    conn.execute("SELECT pg_notify(%s, '')", (WEBHOOK_CHANNEL,))


_CLAIM_DUE = """
WITH due AS (
    SELECT d.id, d.endpoint_id FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.done_at IS NULL AND d.enqueued_at IS NULL AND d.due_at <= now() AND e.enabled
      AND (d.leased_until IS NULL OR d.leased_until < now())
      AND (e.last_enqueued_at IS NULL
           OR e.last_enqueued_at <= now() - make_interval(secs => %(spacing)s))
      -- One in flight per endpoint, and of its due ones the oldest: a delivery waiting out a
      -- retry's delay holds back no later one that is due.
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o
                      WHERE o.endpoint_id = d.endpoint_id AND o.done_at IS NULL
                        AND (o.enqueued_at IS NOT NULL OR o.leased_until >= now()
                             OR (o.id < d.id AND o.due_at <= now())))
    ORDER BY d.due_at, d.id
    LIMIT %(limit)s
    FOR UPDATE OF d, e SKIP LOCKED
), spaced AS (
    UPDATE webhook_endpoints e SET last_enqueued_at = now() FROM due WHERE e.id = due.endpoint_id
)
UPDATE webhook_deliveries d SET enqueued_at = now() FROM due WHERE d.id = due.id
RETURNING d.id, d.failures
"""


def claim_due(conn: Connection, limit: int, spacing_seconds: float) -> list[DueDelivery]:
    """Each endpoint's oldest due delivery, if none of its deliveries is in flight, its
    endpoint is enabled and was handed nothing for `spacing_seconds`, marked as handed to RQ
    now (at most `limit`). An endpoint has one delivery in flight at most; first attempts go
    in the notices' order, and a delivery waiting to be retried lets later due ones pass it
    (one failing delivery does not hold back the rest). Enqueue them before this transaction
    commits."""
    rows = fetch_all(
        conn,
        _CLAIM_DUE,
        {"spacing": spacing_seconds, "limit": limit},
        row_factory=class_row(DueDelivery),
    )
    return sorted(rows, key=lambda row: row.id)


def in_flight(conn: Connection) -> int:
    count: int = fetch_value(
        conn,
        "SELECT count(*) FROM webhook_deliveries WHERE done_at IS NULL AND enqueued_at IS NOT NULL",
    )
    return count


_LEASE = """
WITH leased AS (
    UPDATE webhook_deliveries d SET leased_until = now() + make_interval(secs => %(lease)s)
    FROM webhook_endpoints e
    WHERE d.id = %(id)s AND d.failures = %(failures)s AND d.done_at IS NULL
      AND (d.leased_until IS NULL OR d.leased_until < now())
      AND e.id = d.endpoint_id AND e.enabled
    RETURNING d.id, d.message_id, d.player_id, d.kind, d.notice, d.created_at, d.failures,
              e.id AS endpoint_id, e.url, e.secret_sealed
)
SELECT leased.*, n.game_id, n.version, n.seat, n.created_at AS notice_at FROM leased
LEFT JOIN notices n ON n.player_id = leased.player_id AND n.number = leased.notice
"""


def lease(conn: Connection, delivery_id: int, failures: int) -> LeasedDelivery | None:
    """The delivery, now this job's to send for LEASE_SECONDS; None if that attempt was made
    already, another job holds it, or its endpoint was disabled or removed. A job may start
    before the relay that enqueued it has committed: the relay's row lock makes this wait for
    that commit, so the job never finds its delivery not yet handed out."""
    params = {"id": delivery_id, "failures": failures, "lease": LEASE_SECONDS}
    return fetch_one(conn, _LEASE, params, row_factory=class_row(LeasedDelivery))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What recording an attempt did to the endpoint."""

    failures_in_a_row: int
    disabled_now: bool


_RECORD = """
WITH moved AS (
    UPDATE webhook_deliveries SET enqueued_at = NULL, leased_until = NULL,
        done_at = CASE WHEN %(finished)s THEN now() END,
        failures = failures + CASE WHEN %(finished)s THEN 0 ELSE 1 END,
        due_at = now() + make_interval(secs => %(retry)s)
    WHERE id = %(id)s AND failures = %(failures)s AND done_at IS NULL
    RETURNING id
), tried AS (
    INSERT INTO webhook_attempts (endpoint_id, message_id, kind, notice, attempt, latency_ms,
                                  status, error, answer, delivered)
    SELECT %(endpoint)s, %(message)s, %(kind)s, %(notice)s::bigint, %(attempt)s, %(latency)s,
           %(status)s::smallint, %(error)s::text, %(answer)s, %(delivered)s FROM moved
), endpoint AS (
    UPDATE webhook_endpoints SET
        failures = CASE WHEN %(delivered)s THEN 0 ELSE greatest(failures, %(attempt)s) END,
        enabled = enabled AND (%(delivered)s OR %(attempt)s < %(limit)s),
        disabled_at = CASE WHEN enabled AND NOT %(delivered)s AND %(attempt)s >= %(limit)s
                           THEN now() ELSE disabled_at END
    WHERE id = %(endpoint)s AND NOT %(ping)s AND EXISTS (SELECT 1 FROM moved)
    RETURNING failures, disabled_at = now() AS disabled_now
)
SELECT EXISTS (SELECT 1 FROM moved), (SELECT failures FROM endpoint),
       coalesce((SELECT disabled_now FROM endpoint), false), pg_notify(%(channel)s, '')
"""


def record(
    conn: Connection,
    leased: LeasedDelivery,
    status: int | None,
    latency_ms: int,
    error: str | None,
    answer: str,
    delivered: bool,
    retry_in_seconds: float,
    failure_limit: int,
) -> Outcome | None:
    """Records the attempt, in one statement: the delivery is done (delivered, or a ping tried
    once), or waits `retry_in_seconds` for its next attempt; the endpoint's failures in a row
    start again from 0, or become the most any of its deliveries has failed in a row, and a
    delivery failing for the `failure_limit`-th time disables it (a ping counts for nothing).
    Counted per delivery, not per attempt: later deliveries pass one being retried, so during
    an outage every notice's first attempt fails too, and counting those would disable a busy
    endpoint within minutes rather than after a day of retries. The relay is woken (the
    endpoint's next delivery may go). None if this attempt was recorded already (by a job that
    ran the same attempt)."""
    ping = leased.kind == PING
    params = {
        "finished": delivered or ping, "retry": retry_in_seconds, "id": leased.id,
        "failures": leased.failures, "endpoint": leased.endpoint_id,
        "message": leased.message_id, "kind": leased.kind, "notice": leased.notice,
        "attempt": leased.failures + 1, "latency": latency_ms, "status": status,
        "error": error, "answer": answer, "delivered": delivered, "limit": failure_limit,
        "ping": ping, "channel": WEBHOOK_CHANNEL,
    }  # fmt: skip
    row = fetch_one(conn, _RECORD, params)
    assert row is not None
    recorded, failures_in_a_row, disabled_now, _ = row
    if not recorded:
        return None
    return Outcome(failures_in_a_row or 0, bool(disabled_now))


def stale(conn: Connection, older_than_seconds: float, limit: int = 100) -> list[DueDelivery]:
    """Deliveries handed to RQ longer ago than N seconds that no job holds (Redis lost the job,
    or a worker died with it), marked as handed again now: the sweeper enqueues them again."""
    return fetch_all(
        conn,
        "WITH lost AS (SELECT id FROM webhook_deliveries"
        "  WHERE done_at IS NULL AND enqueued_at < now() - make_interval(secs => %s)"
        "  AND (leased_until IS NULL OR leased_until < now())"
        "  ORDER BY enqueued_at LIMIT %s FOR UPDATE SKIP LOCKED)"
        " UPDATE webhook_deliveries d SET enqueued_at = now() FROM lost WHERE d.id = lost.id"
        " RETURNING d.id, d.failures",
        (older_than_seconds, limit),
        row_factory=class_row(DueDelivery),
    )


def purge(conn: Connection, older_than_seconds: float) -> int:
    """Deletes finished deliveries and attempts older than N seconds: the deliveries list
    shows recent attempts only."""
    done = conn.execute(
        "DELETE FROM webhook_deliveries WHERE done_at < now() - make_interval(secs => %s)",
        (older_than_seconds,),
    ).rowcount
    tried = conn.execute(
        "DELETE FROM webhook_attempts WHERE at < now() - make_interval(secs => %s)",
        (older_than_seconds,),
    ).rowcount
    return done + tried
