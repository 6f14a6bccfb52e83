"""GET /games/{id}/audit (re-fold from nothing and check the chain and the deals) and
GET /games/{id}/export (the log as self-proving NDJSON once the game is over)."""

from __future__ import annotations

import time
from uuid import UUID

from flask import Response, jsonify

from api.auth import bearer_token, caller_seat
from api.games import bp
from api.rendering import render_event
from api.requests import game_uuid
from api.services import services
from domain.games import get_game_type
from domain.table import Table
from domain.table_snapshot import table_from_json
from events import snapshots, store
from events.audit import check_chain, check_deals, fold_records
from events.export import MEDIA_TYPE, event_record, full_export, viewer_export
from events.repository import CODE_VERSION, GameNotFound


def _read_everything(game: UUID):
    """The state the service holds (cache, or snapshot + tail) at its version, then the stream
    row, the snapshot and every stored event. Read in this order, the events reach at least
    that version even while the game goes on (the log is append-only)."""
    svc = services()
    with svc.pool.connection() as conn:
        held, version = _held_state(conn, game)
        head_row = conn.execute(
            "SELECT version, head_hash FROM streams WHERE game_id = %s", (game,)
        ).fetchone()
        snapshot = snapshots.load_snapshot(conn, game)
        stored = store.read_stream(conn, game)
    return held, version, head_row, snapshot, stored


def _held_state(conn, game: UUID) -> tuple[Table | None, int | None]:
    """(state, version) as the service holds it; (None, None) when even that cannot be loaded
    (a log the rules cannot read), which the audit reports instead of failing."""
    try:
        return services().handler.repository.load(conn, game)
    except GameNotFound:
        raise
    except Exception:
        return None, None


@bp.get("/games/<game_id>/audit")
def audit(game_id: str):
    game = game_uuid(game_id)
    token = bearer_token()
    held, version, head_row, snapshot, stored = _read_everything(game)
    caller_seat(game, token)  # a wrong token is 401, as everywhere
    records = [event_record(event) for event in stored]
    version = version or len(records)
    started = time.perf_counter()
    chain = check_chain(str(game), records)
    refolded, fold_error = _refold(records[:version])
    seconds = time.perf_counter() - started
    finished = refolded is not None and refolded.status == "finished"
    deals = check_deals(records[:version]) if finished else None
    row_version, row_head = head_row["version"], head_row["head_hash"]
    # The stream row may be a commit ahead of `version`, never of the events read after it.
    head_ok = 0 < row_version <= len(records) and records[row_version - 1]["hash"] == row_head
    return jsonify(
        {
            "version": version,
            "events_verified": len(records),
            "state_matches": refolded is not None and refolded == held,
            "chain_ok": chain.ok and head_ok,
            "chain_head": chain.head,
            "deals_verified": None if deals is None else deals.ok,
            "first_bad_version": chain.first_bad_version,
            "stream_head_matches": head_ok,
            "snapshot": _snapshot_check(snapshot, records, refolded),
            "deals_checked": 0 if deals is None else deals.checked,
            "bad_deal_versions": [] if deals is None else deals.bad_versions,
            "fold_error": fold_error,
            "status": None if held is None else held.status,
            "replay_seconds": round(seconds, 6),
        }
    )


def _refold(records) -> tuple[Table | None, str | None]:
    try:
        return fold_records(records), None
    except Exception as error:  # a tampered log the domain cannot read: reported, not a 500
        return None, f"{type(error).__name__}: {error}"


def _snapshot_check(snapshot, records, refolded: Table | None) -> dict | None:
    """The stored snapshot, rebuilt, against the re-fold up to its version."""
    if snapshot is None:
        return None
    version, data = snapshot
    if data.get("code") != CODE_VERSION:
        return {"version": version, "matches": None}  # from other code: never used, not checked
    try:
        table = data["table"]
        rebuilt = table_from_json(get_game_type(table["game_type"]), table)
        matches = fold_records(records[:version]) == rebuilt
    except Exception:
        matches = False
    return {"version": version, "matches": matches}


@bp.get("/games/<game_id>/export")
def export(game_id: str):
    game = game_uuid(game_id)
    token = bearer_token()
    svc = services()
    with svc.pool.connection() as conn:
        table, version = svc.handler.repository.load(conn, game)  # GameNotFound if none
        stored = store.read_stream(conn, game, limit=version)  # at least `version` events
    seat = caller_seat(game, token)
    if table.status == "finished":
        lines = full_export(game, table, stored)
    else:
        shown = [render_event(table, event, seat) for event in stored]
        lines = viewer_export(game, table, version, seat, shown)
    response = Response(lines, mimetype=MEDIA_TYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game}.ndjson"'
    response.headers["Vary"] = "Authorization"
    return response
