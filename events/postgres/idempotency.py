"""Idempotency keys, claimed and completed in the same transaction as the events they produce.

claim() inserts an 'in_progress' row; the caller appends its events and calls complete() before
committing, so the row and the events commit (or vanish on rollback) together. A second request
with the same key while the first is still running gets IN_PROGRESS at once instead of waiting:
the first holds a transaction-scoped advisory lock on the key until it commits or rolls back.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from events.idempotent_requests import Claim, ClaimKind
from events.postgres.connections import Connection
from events.postgres.db import fetch_one

KEEP_HOURS = 24


# One statement: try the key's advisory lock and insert only if it was free. A plain
# INSERT ... ON CONFLICT would instead block until the other transaction ends.
_CLAIM = """
WITH lock AS (
    SELECT pg_try_advisory_xact_lock(hashtextextended(%(scope)s || chr(31) || %(key)s, 0)) AS got),
ins AS (
    INSERT INTO idempotency (key_scope, key, request_hash, status)
    SELECT %(scope)s, %(key)s, %(hash)s, 'in_progress' FROM lock WHERE got
    ON CONFLICT DO NOTHING RETURNING 1)
SELECT got, EXISTS (SELECT 1 FROM ins) FROM lock"""


def claim(conn: Connection, scope: str, key: str, request_hash: str) -> Claim:
    row = fetch_one(conn, _CLAIM, {"scope": scope, "key": key, "hash": request_hash})
    assert row is not None  # the statement always returns its one row
    got_lock, inserted = row
    if inserted:
        return Claim(ClaimKind.NEW)
    if not got_lock:
        return Claim(ClaimKind.IN_PROGRESS)
    # We hold the lock, so the row is committed and final (a new statement sees it).
    row = fetch_one(
        conn,
        "SELECT request_hash, status, response FROM idempotency WHERE key_scope = %s AND key = %s",
        (scope, key),
    )
    if row is None:  # purged between the two statements: rare, let the client retry
        return Claim(ClaimKind.IN_PROGRESS)
    stored_hash, status, record = row
    if stored_hash != request_hash:
        return Claim(ClaimKind.REUSED)
    if status != "done":  # committed without complete(): treat as still running
        return Claim(ClaimKind.IN_PROGRESS)
    return Claim(ClaimKind.REPLAY, record)


def complete(conn: Connection, scope: str, key: str, record: Any) -> None:
    """Records what the request did, in the transaction that did it."""
    cur = conn.execute(
        "UPDATE idempotency SET status = 'done', response = %s"
        " WHERE key_scope = %s AND key = %s AND status = 'in_progress'",
        (Jsonb(record), scope, key),
    )
    if cur.rowcount != 1:
        raise LookupError(f"no idempotency claim in progress for {scope}/{key}")


def purge_expired(conn: Connection, older_than_hours: float = KEEP_HOURS) -> int:
    """Deletes keys older than the given age (never less than 24 h); returns how many."""
    hours = max(older_than_hours, KEEP_HOURS)
    cur = conn.execute(
        "DELETE FROM idempotency WHERE created_at < now() - make_interval(secs => %s)",
        (hours * 3600,),
    )
    return cur.rowcount
