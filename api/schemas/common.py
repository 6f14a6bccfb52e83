"""Field types shared by the schemas."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

ALL_SUITS = (
    "clover",
    "cross",
    "harp",
    "snake",
    "red",
    "yellow",
    "green",
    "blue",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
)


class StrictInteger(fields.Integer):
    """An integer that is not a bool, a fraction or a numeric string. A whole float (`2.0`) is
    the same JSON number as `2`, so it is taken as that integer."""

    def __init__(self, **kwargs) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


class CardSchema(Schema):
    suit = fields.String(required=True, validate=validate.OneOf(ALL_SUITS))
    rank = StrictInteger(required=True, validate=validate.Range(1, 15))


def card_list(max_cards: int = 60, **kwargs) -> fields.List:
    return fields.List(fields.Nested(CardSchema), validate=validate.Length(max=max_cards), **kwargs)


def name_field(**kwargs) -> fields.String:
    """A display name: 1-64 characters, no control characters."""
    return fields.String(
        validate=[
            validate.Length(1, 64),
            validate.Regexp(r"^[^\x00-\x1f\x7f]+$", error="Must not contain control characters."),
        ],
        **kwargs,
    )
