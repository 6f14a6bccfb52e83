"""Field types shared by the schemas."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from domain.games import card_ranks, card_suits


class StrictInteger(fields.Integer):
    """An integer that is not a bool, a fraction or a numeric string. A whole float (`2.0`) is
    the same JSON number as `2`, so it is taken as that integer."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> int:
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Boolean):
    """`true` or `false` only: not 1, "yes" or "on", which marshmallow would take as true."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


def registered_suit(value: str) -> None:
    """A suit of a registered game's cards, looked up now: a game registered later counts.
    (marshmallow's validator, with its message, is made only for a suit that fails.)"""
    suits = card_suits()
    if value not in suits:
        validate.OneOf(suits)(value)


def registered_rank(value: int) -> None:
    """From the lowest to the highest rank of the registered games' cards, looked up now."""
    low, high = card_ranks()
    if not low <= value <= high:
        validate.Range(low, high)(value)


class CardSchema(Schema):
    suit = fields.String(required=True, validate=registered_suit)
    rank = StrictInteger(required=True, validate=registered_rank)


def card_list(max_cards: int = 60, **kwargs: Any) -> fields.List[dict[str, Any]]:
    return fields.List(fields.Nested(CardSchema), validate=validate.Length(max=max_cards), **kwargs)


class Name(fields.String):
    """A display name as people see it: NFC-normalised and trimmed, 1-64 characters, with no
    control characters, line or paragraph separators or bidirectional controls (which could make
    a name read as something else, or break the lines of whoever shows it), and not blank."""

    FORBIDDEN = re.compile(
        "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]"
    )

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not 1 <= len(text) <= 64:
            raise ValidationError("Must be 1-64 characters.")
        if self.FORBIDDEN.search(text):
            raise ValidationError(
                "Must not contain control characters, line separators or bidirectional controls."
            )
        name = unicodedata.normalize("NFC", text).strip()
        if not name:
            raise ValidationError("Must not be blank.")
        return name


def name_field(**kwargs: Any) -> fields.String:
    """A display name: see `Name`."""
    return Name(**kwargs)
