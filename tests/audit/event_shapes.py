"""Each event type's `data` as JSON Schema, and where each event type comes from, derived from
the code (the event dataclasses' type hints, `domain.kit.origins`) so that docs/audit.md and
docs/audit/export.schema.json cannot drift from it."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from domain.games import GAME_TYPES
from domain.kit.cards import Card
from domain.kit.codec import omitted_when_none
from domain.kit.origins import event_origin
from domain.tables.table import TABLE_EVENTS

MEANING = {
    "setup": "the table's creation, before any seat acts",
    "choice": "a seat's action (or a seat joining or leaving): taken from the log as the"
    " player's choice",
    "timeout": "a seat's turn ran out: checked against the times the log records",
    "deal": "a deal, derived from the table's seeds (on a table from before seeds, a deck"
    " shuffled outside the rules), checked against its commitment",
    "derived": "given by the rules from what came before: an auditor recomputes it",
}


def event_classes(game_id: str) -> dict[str, type]:
    """Every event type a game's log can hold: the table's own, then the game's."""
    return {**TABLE_EVENTS, **GAME_TYPES[game_id].events}


def origins() -> dict[str, dict[str, str]]:
    """Event type -> {game id -> origin}, table events first, then by first appearance."""
    table: dict[str, dict[str, str]] = {}
    for game_id, game_type in GAME_TYPES.items():
        for name in event_classes(game_id):
            table.setdefault(name, {})[game_id] = event_origin(game_type, name)
    return table


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def of_type(tp: Any) -> dict[str, Any]:
    """The JSON shape `domain.kit.codec.to_json` gives a value of type `tp`."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Card:
        return {"$ref": "#/$defs/Card"}
    if origin in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in args if arg is not type(None)]
        return nullable(of_type(inner))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": of_type(args[0])}
    if tp is dict or origin is dict:
        open_values = not args or args[1] is Any  # any JSON value: say nothing of it
        values = {} if open_values else {"additionalProperties": of_type(args[1])}
        return {"type": "object", **values}
    if dataclasses.is_dataclass(tp):
        return fields_of(tp)
    simple = {bool: "boolean", int: "integer", str: "string"}
    if tp in simple:
        return {"type": simple[tp]}
    raise TypeError(f"no JSON shape for {tp!r}: teach tests/audit/export_schema.py")


def fields_of(cls: type) -> dict[str, Any]:
    """A field left out while None (`domain.kit.codec.optional_field`) is not required, and never
    null when present."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    optional = {field.name for field in fields if omitted_when_none(field)}
    return {
        "type": "object",
        "required": [field.name for field in fields if field.name not in optional],
        "additionalProperties": False,
        "properties": {
            field.name: _present(hints[field.name])
            if field.name in optional
            else of_type(hints[field.name])
            for field in fields
        },
    }


def _present(tp: Any) -> dict[str, Any]:
    """The shape of an optional field's value, when present (never None)."""
    (inner,) = [arg for arg in typing.get_args(tp) if arg is not type(None)]
    return of_type(inner)


def data_defs() -> dict[str, dict[str, Any]]:
    """`<game>.<Type>`: the data of that event type in that game, with its origin."""
    defs = {}
    for game_id in GAME_TYPES:
        for name, cls in event_classes(game_id).items():
            origin = event_origin(GAME_TYPES[game_id], name)
            described = f"{name} in {game_id}: origin {origin}, {MEANING[origin]}."
            defs[f"{game_id}.{name}"] = {
                "description": described,
                "x-game": game_id,
                "x-origin": origin,
                **fields_of(cls),
            }
    return defs


def by_type(defs: dict[str, Any]) -> list[dict[str, Any]]:
    """An event line's `data` must be one of the shapes its `type` has in some game."""
    names = dict.fromkeys(key.split(".", 1)[1] for key in defs)
    return [
        {
            "if": {"properties": {"type": {"const": name}}},
            "then": {
                "properties": {
                    "data": {
                        "anyOf": [
                            {"$ref": f"#/$defs/{key}"}
                            for key in defs
                            if key.split(".", 1)[1] == name
                        ]
                    }
                }
            },
        }
        for name in names
    ]
