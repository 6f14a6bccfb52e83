"""Request bodies and query strings of the games resource."""

from __future__ import annotations

import uuid
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.schemas.common import CardSchema, StrictInteger, card_list, name_field
from domain.games import GAME_TYPES
from domain.shared.seeds import CLIENT_SEED

MAX_SEATS = 10


def client_seed(value: str) -> None:
    """A seat's seed for the deals (G6): public once given, so nothing secret."""
    if CLIENT_SEED.fullmatch(value) is None:
        raise ValidationError("Must be 1-64 printable ASCII characters (space to tilde).")


def client_seed_field() -> fields.String:
    return fields.String(validate=client_seed)


ME = "me"


def seat_player(value: str) -> None:
    """`me` (the player whose key creates the table) or a player's id."""
    if value != ME:
        try:
            uuid.UUID(value)
        except ValueError:
            raise ValidationError("Must be 'me' or a player's id.") from None


class SeatSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]))
    name = name_field()
    level = fields.String(validate=validate.Length(1, 32))
    client_seed = client_seed_field()
    # A human seat of the creating player (`me`), or an open seat kept for a player (its id).
    player = fields.String(validate=seat_player)

    @validates_schema
    def _fields_of_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        kind = data.get("kind")
        player = data.get("player")
        if kind == "human" and "name" not in data and player is None:
            raise ValidationError("a human seat needs a name (or a player)", "name")
        if kind == "human" and player not in (None, ME):
            raise ValidationError("a human seat is the creating player's: 'me'", "player")
        if kind == "open" and player == ME:
            raise ValidationError("an open seat is kept for another player: its id", "player")
        if kind == "bot" and player is not None:
            raise ValidationError("a bot's seat is no player's", "player")
        if kind == "bot" and "level" not in data:
            raise ValidationError("a bot seat needs a level", "level")
        if kind != "human" and "name" in data:
            raise ValidationError("only a human seat has a name", "name")
        if kind != "bot" and "level" in data:
            raise ValidationError("only a bot seat has a level", "level")
        if kind != "human" and "client_seed" in data:
            raise ValidationError("only a human seat gives a seed: bots never do", "client_seed")


def registered_game_type(value: str) -> None:
    """Read from the registry when validating: a game registered later is served too."""
    if value not in GAME_TYPES:
        raise ValidationError(f"Must be one of: {', '.join(sorted(GAME_TYPES))}.")


class CreateGameSchema(Schema):
    type = fields.String(required=True, validate=registered_game_type)
    seats = fields.List(
        fields.Nested(SeatSchema), required=True, validate=validate.Length(1, MAX_SEATS)
    )
    options = fields.Dict(keys=fields.String(validate=validate.Length(1, 64)), load_default=dict)


class DeckOptionsSchema(Schema):
    """The test-deck options, only accepted with GAMES_ALLOW_FIXED_DECK=1."""

    deck = card_list(max_cards=60)
    decks = fields.List(card_list(max_cards=60), validate=validate.Length(1, 50))


class JoinSchema(Schema):
    """`name` and `invite` are needed, except from a player (by its key): its name is the
    default, and a seat kept for it needs no invite."""

    name = name_field()
    invite = fields.String(validate=validate.Length(1, 256))
    client_seed = client_seed_field()


class ActionSchema(Schema):
    type = fields.String(required=True, validate=validate.Length(1, 32))
    card = fields.Nested(CardSchema)
    cards = card_list(max_cards=20)
    count = StrictInteger(validate=validate.Range(0, 1000))
    expected_version = StrictInteger(validate=validate.Range(0, 2**31 - 1))


class ListGamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))
    type = fields.String(validate=validate.OneOf(sorted(GAME_TYPES)))
    cursor = fields.String(validate=validate.Length(1, 200))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 2**31 - 1))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class ReplayQuery(Schema):
    version = fields.Integer(required=True, validate=validate.Range(1, 2**31 - 1))
