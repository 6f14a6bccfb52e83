"""The body of a matchmaking queue join."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from api.schemas.common import StrictBoolean, StrictInteger
from api.schemas.games import MAX_SEATS, registered_game_type
from domain.matchmaking.asking import BOTS_AFTER_MOST


class JoinQueueSchema(Schema):
    type = fields.String(required=True, validate=registered_game_type)
    # Table sizes the player accepts; which ones its game is played at is the domain's check.
    players = fields.List(
        StrictInteger(validate=validate.Range(1, MAX_SEATS)),
        validate=[validate.Length(1, MAX_SEATS), lambda sizes: _distinct(sizes)],
    )
    rated = StrictBoolean(load_default=True)
    bots_after_seconds = StrictInteger(
        allow_none=True, load_default=None, validate=validate.Range(0, BOTS_AFTER_MOST)
    )


def _distinct(sizes: list[int]) -> None:
    """A size named twice is a client's mistake, not a wider wish: refused, as the spec says."""
    if len(set(sizes)) != len(sizes):
        raise ValidationError("each table size at most once")
