"""Request bodies and query strings of the games resource."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.schemas.common import CardSchema, StrictInteger, card_list, name_field
from domain.games import GAME_TYPES
from domain.seeds import CLIENT_SEED

MAX_SEATS = 10


def client_seed(value: str) -> None:
    """A seat's seed for the deals (G6): public once given, so nothing secret."""
    if CLIENT_SEED.fullmatch(value) is None:
        raise ValidationError("Must be 1-64 printable ASCII characters (space to tilde).")


def client_seed_field() -> fields.String:
    return fields.String(validate=client_seed)


class SeatSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]))
    name = name_field()
    level = fields.String(validate=validate.Length(1, 32))
    client_seed = client_seed_field()

    @validates_schema
    def _fields_of_kind(self, data, **kwargs):
        kind = data.get("kind")
        if kind == "human" and "name" not in data:
            raise ValidationError("a human seat needs a name", "name")
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
    name = name_field(required=True)
    invite = fields.String(required=True, validate=validate.Length(1, 256))
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
