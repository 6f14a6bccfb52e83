"""docs/audit/export.schema.json: the JSON Schema (draft 2020-12) of one line of an export,
built from the code that writes exports (the key sets of `events/audit/export.py`, the dataclasses
of the events, seats and outcome), so that it cannot drift from what the server sends."""

from __future__ import annotations

from typing import Any

from domain.games import GAME_TYPES
from domain.kit.cards import Card
from domain.kit.game_state import Outcome
from domain.tables.table import SeatInfo
from events.audit.export import EVENT_KEYS, FORMAT, HEADER_KEYS
from events.audit.export_log import LOG_KEY, LOG_KEYS
from tests.audit.event_shapes import by_type, data_defs, fields_of, nullable, origins

UUID = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
RECORDED_AT = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$"
SIGNATURE = "^[A-Za-z0-9+/]{86}==$"  # base64 of the 64 bytes of an Ed25519 signature
HASH = "^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$"  # base64 of the 32 bytes of a SHA-256 hash
VIEW_HEADER_KEYS = ("kind", "format", "complete", "game_id", "type", "status", "version")
VIEW_EVENT_KEYS = ("kind", "version", "type", "seat", "recorded_at", "data")


def hex_digits(count: int) -> dict[str, Any]:
    return {"type": "string", "pattern": f"^[0-9a-f]{{{count}}}$"}


def shape(keys: Any, properties: dict[str, Any], description: str) -> dict[str, Any]:
    """An object of exactly these keys (each must have its schema here)."""
    if set(keys) != set(properties):
        raise ValueError(f"keys {sorted(keys)}, but schemas for {sorted(properties)}")
    return {
        "description": description,
        "type": "object",
        "required": sorted(keys),
        "additionalProperties": False,
        "properties": properties,
    }


def common() -> dict[str, Any]:
    version = {"type": "integer", "minimum": 1}
    return {
        "game_id": {"type": "string", "pattern": UUID},
        "type": {"enum": sorted(GAME_TYPES)},
        "version": version,
        "format": {"const": FORMAT},
        "kind": {"const": "header"},
    }


def header() -> dict[str, Any]:
    properties = {
        **common(),
        "complete": {"const": True},
        "status": {"const": "finished"},
        "chain_format": {"enum": [1, 2]},
        "chain_head": hex_digits(64),
        "head_signature": nullable({"type": "string", "pattern": SIGNATURE}),
        "key_id": nullable(hex_digits(16)),
        "seats": {"type": "array", "items": fields_of(SeatInfo)},
        "options": {"type": "object"},
        "result": fields_of(Outcome),
    }
    said = "Line 1 of a finished game's export: it proves itself."
    schema = shape(HEADER_KEYS, properties, said)
    schema["properties"][LOG_KEY] = log()  # optional: once the game is in the public log
    return schema


def log() -> dict[str, Any]:
    count = {"type": "integer", "minimum": 0}
    properties = {
        "checkpoint": {"type": "string"},
        "hashes": {"type": "array", "items": {"type": "string", "pattern": HASH}},
        "index": count,
        "size": {"type": "integer", "minimum": 1},
    }
    said = (
        "The game's place in the public log of finished games (docs/audit.md section 10): its"
        " leaf's index, its inclusion proof, the tree size and signed checkpoint it is"
        " relative to. Present once the game's leaf is in the log."
    )
    return shape(LOG_KEYS, properties, said)


def view_header() -> dict[str, Any]:
    properties = {
        **common(),
        "complete": {"const": False},
        "status": {"enum": ["waiting", "active"]},
        "viewer": nullable({"type": "integer", "minimum": 0}),
    }
    said = "Line 1 of an unfinished game's export: only the viewer's view, it proves nothing."
    return shape((*VIEW_HEADER_KEYS, "viewer"), properties, said)


def event_properties(names: list[str]) -> dict[str, Any]:
    return {
        "kind": {"const": "event"},
        "version": {"type": "integer", "minimum": 1},
        "type": {"enum": names},
        "seat": nullable({"type": "integer", "minimum": 0}),
        "recorded_at": {"type": "string", "pattern": RECORDED_AT},
        "data": {"type": "object"},
    }


def event(names: list[str], defs: dict[str, Any]) -> dict[str, Any]:
    properties = {
        **event_properties(names),
        "visible_to": nullable(
            {"type": "array", "uniqueItems": True, "items": {"type": "integer", "minimum": 0}}
        ),
        "nonce": nullable(hex_digits(32)),
        "prev_hash": hex_digits(64),
        "hash": hex_digits(64),
    }
    said = "A stored event of a finished game: every field its hash covers (docs/audit.md)."
    public_has_no_nonce = {
        "if": {"properties": {"visible_to": {"type": "null"}}},
        "then": {"properties": {"nonce": {"type": "null"}}},
    }
    return {**shape(EVENT_KEYS, properties, said), "allOf": [public_has_no_nonce, *by_type(defs)]}


def schema() -> dict[str, Any]:
    defs = data_defs()
    names = list(origins())
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"One line of a Cardroom export ({FORMAT})",
        "description": (
            "Generated by tests/audit/make_vectors.py from the code; see docs/audit.md. An"
            " event's `data` has the shape of its `type` in the header's game (`x-game`);"
            " `x-origin` says where the event comes from: setup, choice, timeout, deal or derived."
        ),
        "oneOf": [
            {"$ref": f"#/$defs/{name}"} for name in ("header", "view_header", "event", "view_event")
        ],
        "$defs": {
            "header": header(),
            "view_header": view_header(),
            "event": event(names, defs),
            "view_event": shape(
                VIEW_EVENT_KEYS,
                event_properties(names),
                "An event of an unfinished game as the viewer may see it (data may be redacted).",
            ),
            "Card": fields_of(Card),
            **defs,
        },
    }
