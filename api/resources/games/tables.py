"""Tables: create one (seats, options, test decks, seeds), take an open seat, list them."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from api.http.auth import bearer_token, current_player, require_seat
from api.http.cursors import decode_cursor, encode_cursor
from api.http.limit_keys import creator_key
from api.http.limits import bot_table_quota, limited, limited_creation
from api.http.problems import Problem
from api.http.rendering import iso
from api.http.requests import game_uuid, idempotent_request, json_body, query
from api.resources.games.blueprint import bp
from api.resources.games.common import created, created_body
from api.schemas.games import ME, CreateGameSchema, DeckOptionsSchema, JoinSchema, ListGamesQuery
from api.services import services
from domain.games import get_game_type
from domain.kit.cards import Card
from domain.tables import table as tables
from events.operations import bot_tables
from events.records import StreamInfo
from events.seeds import SeedRequest

DECK_OPTIONS = ("deck", "decks")
SEED_COMMITMENT = "seed_commitment"  # an option naming the server seed's commitment
# Built once: a schema holds no per-request state, and building one per request costs time.
CREATE, JOIN, LIST_QUERY = CreateGameSchema(), JoinSchema(), ListGamesQuery()
DECK_OPTIONS_SCHEMA = DeckOptionsSchema()


@bp.post("/games")
@limited_creation
def create_game() -> ResponseReturnValue:
    data = json_body(CREATE)
    game_type = get_game_type(data["type"])
    options, fixed_decks = _split_deck_options(data["options"])
    options, commitment = _split_seed_commitment(options)
    seats = _seats(data["seats"])
    seeds = SeedRequest(commitment, tuple(s.get("client_seed") for s in data["seats"]))
    creator = creator_key()
    with bot_table_quota(creator, all(seat.kind == tables.BOT for seat in seats)):
        result = services().commands.create(
            uuid.uuid4(),
            game_type,
            tables.CreateTable(seats, options, fixed_decks),
            idempotent_request("create", secret=True),
            seeds,
            creator=creator,
        )
    return created(created_body(result), {"Location": f"/games/{result.game_id}"})


def _seats(entries: list[dict[str, Any]]) -> tuple[tables.SeatInfo, ...]:
    """The seats asked for, each player's named: `me` is the player whose key creates the
    table (its name unless the seat gives one), an open seat's player must exist."""
    creator = current_player() if any(e.get("player") == ME for e in entries) else None
    seats = []
    for entry in entries:
        player = entry.get("player")
        name = entry.get("name")
        if player == ME and creator is not None:
            player, name = str(creator.id), name or creator.name
        elif player is not None and not services().players.exists(uuid.UUID(player)):
            raise Problem(
                "validation-error", "no such player", errors={"seats": ["no such player"]}
            )
        seats.append(tables.SeatInfo(entry["kind"], name, entry.get("level"), player=player))
    return tuple(seats)


def _split_deck_options(
    options: dict[str, Any],
) -> tuple[dict[str, Any], tuple[tuple[Card, ...], ...]]:
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


def _split_seed_commitment(options: dict[str, Any]) -> tuple[dict[str, Any], uuid.UUID | None]:
    """`options.seed_commitment` names a commitment of POST /seed-commitments: it is not one of
    the table's options, but where its server seed comes from."""
    rest = {key: value for key, value in options.items() if key != SEED_COMMITMENT}
    given = options.get(SEED_COMMITMENT)
    return rest, None if given is None else _commitment_id(given)


def _commitment_id(given: object) -> uuid.UUID:
    if isinstance(given, str):
        try:
            return uuid.UUID(given)
        except ValueError:
            pass
    raise Problem(
        "validation-error",
        "options.seed_commitment is the id that POST /seed-commitments gave",
        errors={"options": {SEED_COMMITMENT: ["not a seed commitment's id"]}},
    )


def _whole(value: object) -> object:
    """`2.0` is the same JSON number as `2`: the games take integer options as ints."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


@bp.post("/games/<game_id>/seats/<int:seat>/join")
@limited("actions")
def join_seat(game_id: str, seat: int) -> ResponseReturnValue:
    game = game_uuid(game_id)
    body = json_body(JOIN)
    player = current_player() if bearer_token() is not None else None
    # A joiner who gives no name is called by the player's name, or by its seat.
    name = body.get("name") or (player.name if player else f"Seat {seat}")
    joined = services().commands.join(
        game,
        seat,
        name,
        body.get("invite"),
        body.get("client_seed"),
        None if player is None else str(player.id),
    )
    return jsonify({"seat": seat, "token": joined.secrets.tokens[seat]}), 201


@bp.post("/games/<game_id>/seats/<int:seat>/leave")
@limited("actions")
def leave_seat(game_id: str, seat: int) -> ResponseReturnValue:
    """The seat's holder leaves: a bot plays the seat from then on, the token is 401 from now;
    before the deal the seat opens again, with a new invite."""
    game = game_uuid(game_id)
    require_seat(game, seat)
    svc = services()
    creator, created_at = svc.queries.origin(game)
    with bot_table_quota(creator, _leaves_it_to_bots(svc.queries.game(game)[0], seat, created_at)):
        left = svc.commands.leave(game, seat)
    body: dict[str, Any] = {"seat": seat, "version": left.version}
    if seat in left.secrets.invites:
        body["invite"] = left.secrets.invites[seat]
    return jsonify(body), 201


def _leaves_it_to_bots(table: tables.Table, seat: int, created_at: datetime) -> bool:
    """Whether the seat's leaving makes a young dealt table one of bots alone: it then counts
    as one (creating a table with one human and leaving at once got round that quota)."""
    humans = [s for s, info in enumerate(table.seats) if info.kind == tables.HUMAN]
    return bot_tables.young(created_at, datetime.now(UTC)) and table.started and humans == [seat]


@bp.post("/games/<game_id>/seats/<int:seat>/token")
@limited("actions")
def new_seat_token(game_id: str, seat: int) -> ResponseReturnValue:
    """The seat's token holder gets a new token; the old one is 401 from then on."""
    game = game_uuid(game_id)
    require_seat(game, seat)
    token = services().commands.new_token(game, seat)
    return jsonify({"seat": seat, "token": token}), 201


@bp.get("/games")
@limited("reads")
def list_games() -> ResponseReturnValue:
    params = query(LIST_QUERY)
    before = decode_cursor(params["cursor"]) if "cursor" in params else None
    rows = services().queries.games(
        params.get("status"), params.get("type"), before, params["limit"] + 1
    )
    page = rows[: params["limit"]]
    next_cursor = encode_cursor(page[-1].cursor) if len(rows) > len(page) else None
    return jsonify({"games": [_summary(row) for row in page], "next_cursor": next_cursor})


def _summary(row: StreamInfo) -> dict[str, Any]:
    return {
        "id": str(row.game_id),
        "type": row.game_type,
        "status": row.status,
        "version": row.version,
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
    }
