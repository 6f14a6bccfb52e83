"""The report of GET /games/{id}/audit, built from a game's log as read at one moment.

The report tells nobody a card they may not see: before the game ends a problem names only its
version (its sentence could name hidden cards), and format-1 games, whose hashes cover secrets
without a nonce, publish no head.
"""

from __future__ import annotations

import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.tables.table import Table
from events.audit.export import Anchor, event_record
from events.audit.log_checks import check_deals, check_log
from events.audit.seed_check import SeedCheck, check_seeds
from events.audit.signing import key_id, signature_is_valid
from events.folding import CODE_VERSION, fold_events, table_from_snapshot
from events.postgres.audit_reads import GameLog


def held_state(game_id: str, log: GameLog) -> Table | None:
    """The state a process of the service would hold: snapshot plus tail, or None when the
    rules cannot read the log."""
    version, table = table_from_snapshot(game_id, log.snapshot)
    try:
        return fold_events(table, log.events[version:])
    except Exception:  # a tampered log the rules cannot read: reported, not a 500
        return None


def anchor(game_id: str, log: GameLog, key: Ed25519PublicKey, finished: bool) -> Anchor:
    """The head and its signature, when they may be published."""
    stream = log.stream
    if stream.chain_format == 1 and not finished:
        return Anchor(1, "", None, None)
    signer = key_id(key) if stream.head_signature else None
    return Anchor(stream.chain_format, stream.head_hash, stream.head_signature, signer)


def audit_report(game_id: str, log: GameLog, key: Ed25519PublicKey) -> dict[str, Any]:
    records = [event_record(event) for event in log.events]
    started = time.perf_counter()
    snapshot_version = log.snapshot[0] if log.snapshot else None
    checked = check_log(game_id, log.stream.chain_format, records, keep={snapshot_version or 0})
    seconds = time.perf_counter() - started
    held = held_state(game_id, log)
    table = checked.rules.table
    finished = held is not None and held.status == "finished"
    deals = check_deals(records) if finished else None
    seeds = check_seeds(game_id, records) if finished else None
    stream = log.stream
    head_ok = stream.version == len(records) and (
        not records or records[-1]["hash"] == stream.head_hash
    )
    published = anchor(game_id, log, key, finished)
    signed = signature_is_valid(
        key, game_id, stream.version, stream.head_hash, stream.head_signature
    )
    return {
        "version": stream.version,
        "events_verified": len(records),
        "state_matches": checked.rules.ok and table is not None and table == held,
        "chain_ok": checked.chain.ok and head_ok,
        "chain_head": published.chain_head or None,
        "head_signature": published.head_signature,
        "signature_ok": signed if published.chain_head else None,
        "key_id": published.key_id,
        "chain_format": stream.chain_format,
        "rules_ok": checked.rules.ok,
        "deals_verified": None if deals is None else deals.ok,
        "deals_fair": deals_fair(seeds, checked.rules.ok and bool(deals and deals.ok)),
        "seeds_verified": None if seeds is None or not seeds.seeded else seeds.ok,
        "first_bad_version": checked.chain.first_bad_version,
        "rules_first_bad_version": checked.rules.first_bad_version,
        "rules_problem": _problem(checked.rules.first_bad_version, checked.rules.problem, finished),
        "stream_head_matches": head_ok,
        "snapshot": _snapshot_check(game_id, log, checked.rules.tables_at),
        "deals_checked": 0 if deals is None else deals.checked,
        "bad_deal_versions": [] if deals is None else deals.bad_versions,
        "status": None if held is None else held.status,
        "replay_seconds": round(seconds, 6),
    }


def deals_fair(seeds: SeedCheck | None, rules_and_deals_ok: bool) -> bool | None:
    """Null while the game runs and where test decks were chosen; else true only for a table
    whose every check passed and whose seeds make its deals fair."""
    if seeds is None or seeds.fixed_decks:
        return None
    return rules_and_deals_ok and seeds.ok and seeds.fair


def _problem(version: int | None, problem: str | None, finished: bool) -> str | None:
    if problem is None or finished:
        return problem
    return f"v{version}: differs from what the rules give (the details are shown once it ends)"


def _snapshot_check(
    game_id: str, log: GameLog, tables_at: dict[int, Table]
) -> dict[str, Any] | None:
    """The stored snapshot, rebuilt, against the re-decided table at its version."""
    if log.snapshot is None:
        return None
    version, data = log.snapshot
    if data.get("code") != CODE_VERSION:
        return {"version": version, "matches": None}  # of other code: never used, not checked
    _, rebuilt = table_from_snapshot(game_id, log.snapshot)
    return {
        "version": version,
        "matches": rebuilt is not None and tables_at.get(version) == rebuilt,
    }
