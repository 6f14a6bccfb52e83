"""Finished games' audit reports, computed once (an audit re-decides every event: about 100 ms
of CPU for a 220-event game) and served from here while the game, the code and the key that
made the report are the same. Only a finished game's report is kept, and only one whose every
check passed: a failing one (a log altered in the database) is looked at again each time.
A kept report is served while the game's version and chain head are those it covered.
`python -m events.audit.verify` on the game's export checks everything again, offline."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from events.postgres.connections import Connection
from events.postgres.db import fetch_value


def cached(conn: Connection, game_id: UUID, code: str, key_id: str) -> dict[str, Any] | None:
    """The report kept for the game at its current version, by this code and key; or None."""
    report: dict[str, Any] | None = fetch_value(
        conn,
        "SELECT r.report FROM audit_reports r JOIN streams s ON s.game_id = r.game_id"
        " WHERE r.game_id = %s AND r.version = s.version AND r.code = %s AND r.key_id = %s"
        " AND r.head_hash = s.head_hash",
        (game_id, code, key_id),
    )
    return report


def keep(
    conn: Connection,
    game_id: UUID,
    code: str,
    key_id: str,
    report: dict[str, Any],
) -> None:
    """Keeps a finished game's report (the newest wins, for other code or another key)."""
    conn.execute(
        "INSERT INTO audit_reports (game_id, version, head_hash, code, key_id, report)"
        " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET"
        " version = EXCLUDED.version, head_hash = EXCLUDED.head_hash, code = EXCLUDED.code,"
        " key_id = EXCLUDED.key_id, report = EXCLUDED.report, created_at = now()",
        (game_id, report["version"], report["chain_head"], code, key_id, Jsonb(report)),
    )


# Every check of a report that must hold for it to be kept.
PASSED = ("state_matches", "chain_ok", "rules_ok", "deals_verified", "stream_head_matches")


def all_passed(report: dict[str, Any]) -> bool:
    return all(report.get(name) is True for name in PASSED) and report.get("signature_ok") in (
        True,
        None,
    )
