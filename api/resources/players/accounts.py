"""POST /players (a player and its key, shown once), GET /players/{id} (a public profile, with
its ratings), GET /players/me (whose key this is: a client that was handed a key learns its
player) and POST /players/me/key (a new key: the old one, and what it opened, end at once)."""

from __future__ import annotations

from uuid import UUID

from flask import Response, jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import current_player
from api.http.limits import limited
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import json_body
from api.resources.games.common import created
from api.resources.players.blueprint import bp
from api.resources.players.ratings import rating_json
from api.schemas.players import NewPlayerSchema
from api.services import services

NEW_PLAYER = NewPlayerSchema()


@bp.post("/players")
@limited("players")
def create_player() -> ResponseReturnValue:
    body = json_body(NEW_PLAYER)
    player, key = services().players.create(body["name"])
    shown = {"id": str(player.id), "name": player.name, "key": key,
             "created_at": iso(player.created_at)}  # fmt: skip
    return created(shown, {"Location": f"/players/{player.id}", "Cache-Control": "no-store"})


@bp.get("/players/me")
@limited("reads")
def show_me() -> ResponseReturnValue:
    """The profile of the key's player (401 for a key that is no player's, or no longer is)."""
    return _profile(current_player().id)


@bp.get("/players/<player_id>")
@limited("reads")
def show_player(player_id: str) -> ResponseReturnValue:
    return _profile(_player_uuid(player_id))


def _profile(player_id: UUID) -> Response:
    profile = services().players.profile(player_id)
    player = profile.player
    shown = {
        "id": str(player.id),
        "name": player.name,
        "created_at": iso(player.created_at),
        "games": profile.games,
        "ratings": {kind: rating_json(r) for kind, r in profile.ratings.items()},
    }
    if profile.bot_level is not None:
        shown["bot"] = profile.bot_level
    return jsonify(shown)


@bp.post("/players/me/key")
@limited("actions")
def new_player_key() -> ResponseReturnValue:
    player = current_player()
    key = services().players.new_key(player.id)
    response = jsonify({"key": key})
    response.status_code = 201
    response.headers["Cache-Control"] = "no-store"
    return response


def _player_uuid(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise Problem("not-found", "no such player") from None
