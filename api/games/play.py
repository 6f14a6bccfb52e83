"""Play: the game as the caller may see it, actions, the event log and replays."""

from __future__ import annotations

from flask import Response, jsonify, request

from api.auth import bearer_token, caller_seat
from api.games import bp
from api.games.common import reply
from api.problems import Problem
from api.rendering import render_event, render_game
from api.requests import game_uuid, idempotent_request, json_body, query
from api.schemas.games import ActionSchema, EventsQuery, ReplayQuery
from api.services import services
from domain import table as tables
from domain.actions import command_from_action
from domain.decider import IllegalAction
from events import store
from events.handler import Outcome
from events.repository import GameNotFound, fold_events

ACTION, EVENTS_QUERY, REPLAY_QUERY = ActionSchema(), EventsQuery(), ReplayQuery()


def _load_for_caller(game_id: str):
    game = game_uuid(game_id)
    token = bearer_token()
    svc = services()
    with svc.pool.connection() as conn:
        table, version = svc.handler.repository.load(conn, game)
    return game, table, version, caller_seat(game, token)


@bp.get("/games/<game_id>")
def show_game(game_id: str):
    game, table, version, seat = _load_for_caller(game_id)
    etag = f'"{version}"'
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        return Response(status=304, headers={"ETag": etag, "Vary": "Authorization"})
    response = jsonify(render_game(game, version, table, seat))
    response.headers.update({"ETag": etag, "Vary": "Authorization"})
    return response


@bp.post("/games/<game_id>/actions")
def act(game_id: str):
    game = game_uuid(game_id)
    token = bearer_token()
    svc = services()
    if token is None:
        _require_game(game)
        raise Problem("unauthorized", "acting needs 'Authorization: Bearer <seat token>'")
    seat = _seat_or_404(game, token)
    action = json_body(ACTION)
    expected = action.pop("expected_version", None)

    def decision(table: tables.Table):
        return tables.decide(table, command_from_action(table.game_type, seat, action))

    def respond(outcome: Outcome) -> tuple[int, dict]:
        events = [
            render_event(outcome.table, stored, seat, event)
            for stored, event in zip(outcome.stored, outcome.events, strict=True)
        ]
        game_view = render_game(game, outcome.version, outcome.table, seat)
        return 201, {"version": outcome.version, "events": events, "game": game_view}

    try:
        outcome = svc.handler.execute(
            game,
            decision,
            expected_version=expected,
            idem=idempotent_request(f"action:{game}:{seat}"),
            respond=respond,
        )
    except IllegalAction as error:
        raise Problem("illegal-action", error.message, legal_actions=_legal(game, seat)) from None
    return reply(outcome)


def _require_game(game) -> None:
    with services().pool.connection() as conn:
        if store.stream_version(conn, game) is None:
            raise GameNotFound(str(game))


def _seat_or_404(game, token: str) -> int:
    """The token's seat; an unknown game is a 404 rather than a 401."""
    try:
        return caller_seat(game, token)
    except Problem:
        _require_game(game)
        raise


def _legal(game, seat: int) -> list[dict]:
    svc = services()
    with svc.pool.connection() as conn:
        table, _ = svc.handler.repository.load(conn, game)
    if not table.started or table.status == "finished":
        return []
    return table.game_type.legal_actions(table.game, seat)


@bp.get("/games/<game_id>/events")
def list_events(game_id: str):
    params = query(EVENTS_QUERY)
    game, table, version, seat = _load_for_caller(game_id)
    with services().pool.connection() as conn:
        stored = store.read_stream(conn, game, after=params["after"], limit=params["limit"])
    events = [render_event(table, event, seat) for event in stored]
    return jsonify({"events": events, "version": version})


@bp.get("/games/<game_id>/replay")
def replay(game_id: str):
    params = query(REPLAY_QUERY)
    game, table, version, seat = _load_for_caller(game_id)
    if params["version"] > version:
        raise Problem(
            "validation-error",
            f"the game has only {version} events",
            errors={"version": [f"must be at most {version}"]},
        )
    with services().pool.connection() as conn:
        stored = store.read_stream(conn, game, after=0, limit=params["version"])
    return jsonify(render_game(game, params["version"], fold_events(None, stored), seat))
