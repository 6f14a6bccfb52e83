"""The games resource: create, join, list, show, act, the event log and replays."""

from __future__ import annotations

import uuid

from flask import Blueprint, Response, jsonify, request

from api.auth import bearer_token, caller_seat
from api.cursors import decode_cursor, encode_cursor
from api.problems import Problem
from api.rendering import iso, render_event, render_game
from api.requests import game_uuid, idempotent_request, json_body, query
from api.schemas.games import (
    ActionSchema,
    CreateGameSchema,
    DeckOptionsSchema,
    EventsQuery,
    JoinSchema,
    ListGamesQuery,
    ReplayQuery,
)
from api.services import services
from domain import table as tables
from domain.actions import command_from_action
from domain.cards import Card
from domain.decider import IllegalAction
from domain.games import get_game_type
from events import seat_tokens, store
from events.handler import Outcome
from events.repository import GameNotFound, fold_events

bp = Blueprint("games", __name__)
DECK_OPTIONS = ("deck", "decks")
# Built once: a schema holds no per-request state, and building one per request costs time.
CREATE, JOIN, ACTION = CreateGameSchema(), JoinSchema(), ActionSchema()
LIST_QUERY, EVENTS_QUERY, REPLAY_QUERY = ListGamesQuery(), EventsQuery(), ReplayQuery()
DECK_OPTIONS_SCHEMA = DeckOptionsSchema()


def _reply(outcome: Outcome, headers: dict | None = None):
    status, body = outcome.response
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers or {})
    return response


@bp.post("/games")
def create_game():
    data = json_body(CREATE)
    game_type = get_game_type(data["type"])
    options, fixed_decks = _split_deck_options(data["options"])
    seats = tuple(tables.SeatInfo(s["kind"], s.get("name"), s.get("level")) for s in data["seats"])
    tokens = {i: seat_tokens.new_token() for i, s in enumerate(seats) if s.kind == tables.HUMAN}
    game_id = uuid.uuid4()

    def save_tokens(conn, outcome: Outcome) -> None:
        for seat, token in tokens.items():
            seat_tokens.save(conn, game_id, seat, token)

    def respond(outcome: Outcome) -> tuple[int, dict]:
        body = render_game(game_id, outcome.version, outcome.table, None)
        body["tokens"] = [{"seat": seat, "token": token} for seat, token in tokens.items()]
        return 201, body

    outcome = services().handler.create(
        game_id,
        game_type,
        tables.CreateTable(seats, options, fixed_decks),
        idem=idempotent_request("create", sealed=True),
        respond=respond,
        extra=save_tokens,
    )
    return _reply(outcome, {"Location": f"/games/{outcome.response[1]['id']}"})


def _split_deck_options(options: dict) -> tuple[dict, tuple[tuple[Card, ...], ...]]:
    given = {key: options[key] for key in DECK_OPTIONS if key in options}
    rest = {key: _whole(value) for key, value in options.items() if key not in DECK_OPTIONS}
    if not given:
        return rest, ()
    if not services().settings.allow_fixed_deck:
        raise Problem(
            "validation-error",
            "fixed decks are only accepted when the server allows them",
            errors={"options": {key: ["not allowed on this server"] for key in given}},
        )
    if len(given) > 1:
        raise Problem("validation-error", "give deck or decks, not both", errors={})
    parsed = DECK_OPTIONS_SCHEMA.load(given)
    decks = [parsed["deck"]] if "deck" in parsed else parsed["decks"]
    return rest, tuple(tuple(Card.from_json(c) for c in deck) for deck in decks)


def _whole(value: object) -> object:
    """`2.0` is the same JSON number as `2`: the games take integer options as ints."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


@bp.post("/games/<game_id>/seats/<int:seat>/join")
def join_seat(game_id: str, seat: int):
    game = game_uuid(game_id)
    name = json_body(JOIN)["name"]
    token = seat_tokens.new_token()

    def save_token(conn, outcome: Outcome) -> None:
        seat_tokens.save(conn, game, seat, token)

    services().handler.execute(
        game, lambda table: tables.decide(table, tables.JoinSeat(seat, name)), extra=save_token
    )
    return jsonify({"seat": seat, "token": token}), 201


@bp.get("/games")
def list_games():
    params = query(LIST_QUERY)
    before = decode_cursor(params["cursor"]) if "cursor" in params else None
    with services().pool.connection() as conn:
        rows = store.list_streams(
            conn, params.get("status"), params.get("type"), before, params["limit"] + 1
        )
    page = rows[: params["limit"]]
    next_cursor = encode_cursor(page[-1].cursor) if len(rows) > len(page) else None
    return jsonify({"games": [_summary(row) for row in page], "next_cursor": next_cursor})


def _summary(row) -> dict:
    return {
        "id": str(row.game_id),
        "type": row.game_type,
        "status": row.status,
        "version": row.version,
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
    }


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
    return _reply(outcome)


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
