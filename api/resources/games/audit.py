"""GET /games/{id}/audit (re-decide every move and check the chain, the deals and the signed
head), GET /games/{id}/export (the log as self-proving NDJSON once the game is over, with its
place in the public log once it is there) and GET /audit-key (the public key that signs every
head)."""

from __future__ import annotations

from flask import Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, caller_seat
from api.http.limits import charge_costly_read, limited
from api.http.rendering import render_event
from api.http.requests import game_uuid
from api.resources.games.blueprint import bp
from api.services import services
from events.audit.export import MEDIA_TYPE, full_export, viewer_export
from events.audit.export_log import LogProof
from events.audit.log_format import open_checkpoint
from events.audit.report import anchor, held_state
from events.errors import GameNotFound


@bp.get("/audit-key")
@limited("reads")
def audit_key() -> ResponseReturnValue:
    return jsonify(services().signer.public_description())


@bp.get("/games/<game_id>/audit")
@limited("reads")
def audit(game_id: str) -> ResponseReturnValue:
    game = game_uuid(game_id)
    token = bearer_token()
    caller_seat(game, token)  # a wrong token is 401 before any work, as everywhere
    svc = services()
    report = svc.queries.kept_audit(game, svc.signer.public_key)
    if report is None:  # re-deciding every event: it counts as a costly read
        charge_costly_read(token)
        report = svc.queries.audit(game, svc.signer.public_key)
    return jsonify(report)


@bp.get("/games/<game_id>/export")
@limited("reads")
def export(game_id: str) -> ResponseReturnValue:
    game = game_uuid(game_id)
    token = bearer_token()
    seat = caller_seat(game, token)  # a wrong token is 401 before any work
    charge_costly_read(token)
    svc = services()
    log = svc.queries.log(game)
    table = held_state(str(game), log)
    if table is None:
        raise GameNotFound(game)  # a log the rules cannot read: only /audit reports it
    if table.status == "finished":
        published = anchor(str(game), log, svc.signer.public_key, finished=True)
        lines = full_export(game, table, log.events, published, _in_public_log(str(game)))
    else:
        shown = [render_event(table, event, seat) for event in log.events]
        lines = viewer_export(game, table, log.stream.version, seat, shown)
    response = Response(lines, mimetype=MEDIA_TYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game}.ndjson"'
    response.headers["Vary"] = "Authorization"
    return response


def _in_public_log(game_id: str) -> LogProof | None:
    """The game's leaf in the tree of the latest checkpoint, with that checkpoint: the proof is
    asked for that checkpoint's size, so an append meanwhile changes neither."""
    svc = services()
    note = svc.public_log.checkpoint_note()
    size = open_checkpoint(note, svc.signer.public_key).size
    included = svc.public_log.inclusion(game_id, size)
    if included is None:
        return None
    return LogProof(included.index, included.size, tuple(included.hashes), note)
