"""Play: the game as the caller may see it, actions, the event log and replays."""

from __future__ import annotations

from uuid import UUID

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, checked_seat
from api.http.limits import limited
from api.http.problems import Problem
from api.http.rendering import render_event, render_game
from api.http.requests import game_uuid, idempotent_request, json_body, query
from api.resources.games.blueprint import bp
from api.resources.games.common import action_body, created
from api.schemas.games import ActionSchema, EventsQuery, ReplayQuery
from api.services import services
from domain.tables.table import Table
from events.commands import ActionRequest
from events.errors import GameNotFound
from events.operations import logs

ACTION, EVENTS_QUERY, REPLAY_QUERY = ActionSchema(), EventsQuery(), ReplayQuery()


def _load_for_caller(game_id: str) -> tuple[UUID, Table, int, int | None]:
    game = game_uuid(game_id)
    token = bearer_token()
    table, version, seat = services().queries.game_as(game, token)
    return game, table, version, checked_seat(token, seat)


@bp.get("/games/<game_id>")
@limited("reads")
def show_game(game_id: str) -> ResponseReturnValue:
    game, token = game_uuid(game_id), bearer_token()
    held = {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}
    shown = services().queries.shown_game(game, token, held=lambda v: _etag(v) in held)
    seat, version = checked_seat(token, shown.seat), shown.version
    logs.bind(version=version)  # the log line says which version the caller saw
    etag = _etag(version)
    if etag in held:
        return Response(status=304, headers={"ETag": etag, "Vary": "Authorization"})
    response = jsonify(render_game(game, version, shown.table, seat, shown.deadlines))
    response.headers.update({"ETag": etag, "Vary": "Authorization"})
    return response


def _etag(version: int) -> str:
    return f'"{version}"'


@bp.post("/games/<game_id>/actions")
@limited("actions")
def act(game_id: str) -> ResponseReturnValue:
    game = game_uuid(game_id)
    token = bearer_token()
    if token is None:
        _require_game(game)
        raise Problem("unauthorized", "acting needs 'Authorization: Bearer <seat token>'")

    # Read and checked before the game is locked or a connection taken (api/http/bodies.py has
    # read the bytes): the lock is never held while a client is slow.
    action = json_body(ACTION)
    expected = action.pop("expected_version", None)
    request = ActionRequest(action, expected, idempotent_request(f"action:{game}"))
    seat, result = services().commands.act_as(game, token, request)
    return created(action_body(result, seat))


def _require_game(game: UUID) -> None:
    if not services().queries.exists(game):
        raise GameNotFound(game)


@bp.get("/games/<game_id>/events")
@limited("reads")
def list_events(game_id: str) -> ResponseReturnValue:
    params = query(EVENTS_QUERY)
    game, table, version, seat = _load_for_caller(game_id)
    stored = services().queries.events(game, after=params["after"], limit=params["limit"])
    events = [render_event(table, event, seat) for event in stored]
    return jsonify({"events": events, "version": version})


@bp.get("/games/<game_id>/replay")
@limited("reads")
def replay(game_id: str) -> ResponseReturnValue:
    params = query(REPLAY_QUERY)
    game, table, version, seat = _load_for_caller(game_id)
    if params["version"] > version:
        raise Problem(
            "validation-error",
            f"the game has only {version} events",
            errors={"version": [f"must be at most {version}"]},
        )
    table_then = services().queries.table_at(game, params["version"])
    # A replay shows the game as it stood then: its turns carry no deadline. Once the game is
    # over, nothing of any version of it is secret.
    over = table.status == "finished"
    body = render_game(game, params["version"], table_then, seat, deadlines={}, game_over=over)
    return jsonify(body)
