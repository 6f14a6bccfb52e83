"""POST /seed-commitments: the server commits to a secret seed before any table uses it, so the
seeds the players give afterwards count (G6, docs/audit.md)."""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue

from api.http.limits import limited
from api.http.rendering import iso
from api.resources.games.blueprint import bp
from api.services import services


@bp.post("/seed-commitments")
@limited("actions")
def new_seed_commitment() -> ResponseReturnValue:
    """A fresh server seed, kept secret until the game that uses it ends: its id (for
    `options.seed_commitment`), its hash, and when it expires unused."""
    made = services().commands.commit_seed()
    body = {"id": str(made.id), "commitment": made.commitment, "expires_at": iso(made.expires_at)}
    return jsonify(body), 201
