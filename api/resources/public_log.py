"""The public log of finished games (events/public_log.py): GET /log/checkpoint, the latest
signed checkpoint; /log/entries, its leaves; /log/proof/inclusion and /log/proof/consistency,
RFC 9162 proofs. Nothing here goes beyond the latest checkpoint: a size or index past it is
404, as is a game not in the tree asked about.

What is asked for fixed sizes never changes (the log is append-only), so it may be kept
forever by any cache; what follows the latest checkpoint is revalidated.
"""

from __future__ import annotations

import base64

from flask import Blueprint, Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.limits import limited
from api.http.problems import Problem
from api.http.requests import query
from api.schemas.public_log import ConsistencyQuery, EntriesQuery, InclusionQuery
from api.services import services
from events.public_log import BeyondTheLog, PublicLog

bp = Blueprint("public_log", __name__)
ENTRIES, INCLUSION, CONSISTENCY = EntriesQuery(), InclusionQuery(), ConsistencyQuery()
IMMUTABLE = "public, max-age=31536000, immutable"
LATEST = "public, no-cache"  # the latest checkpoint moves on: revalidate


@bp.get("/log/checkpoint")
@limited("reads")
def checkpoint() -> ResponseReturnValue:
    response = Response(_log().checkpoint_note(), mimetype="text/plain")
    response.headers["Cache-Control"] = LATEST
    return response


@bp.get("/log/entries")
@limited("reads")
def entries() -> ResponseReturnValue:
    params = query(ENTRIES)
    public_log = _log()
    size = public_log.size()
    if params["start"] >= size:
        raise _beyond(f"the log's latest checkpoint has {size} leaves")
    items = public_log.entries(params["start"], params["end"])
    body = {
        "items": [{"index": e.index, "game_id": e.game_id, "leaf": _b64(e.leaf)} for e in items]
    }
    whole = items[-1].index + 1 == params["end"]  # every leaf asked for: never changes
    return _cached(jsonify(body), IMMUTABLE if whole else LATEST)


@bp.get("/log/proof/inclusion")
@limited("reads")
def inclusion() -> ResponseReturnValue:
    params = query(INCLUSION)
    try:
        proven = _log().inclusion(params["game"], params.get("size"))
    except BeyondTheLog as error:
        raise _beyond(str(error)) from None
    if proven is None:
        raise Problem("not-found", "the game is not in the log's tree of that size")
    body = {"index": proven.index, "size": proven.size, "hashes": _b64s(proven.hashes)}
    return _cached(jsonify(body), IMMUTABLE if "size" in params else LATEST)


@bp.get("/log/proof/consistency")
@limited("reads")
def consistency() -> ResponseReturnValue:
    params = query(CONSISTENCY)
    try:
        hashes = _log().consistency(params["first"], params["second"])
    except BeyondTheLog as error:
        raise _beyond(str(error)) from None
    return _cached(jsonify({"hashes": _b64s(hashes)}), IMMUTABLE)


def _log() -> PublicLog:
    return services().public_log


def _beyond(detail: str) -> Problem:
    """A size the log has not reached (yet): no such tree, as for an unknown game."""
    return Problem("not-found", detail)


def _cached(response: Response, policy: str) -> Response:
    response.headers["Cache-Control"] = policy
    return response


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _b64s(hashes: list[bytes]) -> list[str]:
    return [_b64(h) for h in hashes]
