"""Frozen dataclasses (events, commands) to JSON-ready dicts and back, by their type hints."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from domain.kit.cards import Card

OMITTED_WHEN_NONE = {"omitted_when_none": True}
"""Field metadata: the field is left out of the JSON while it is None. A field added to an
event after such events were stored is declared so: the older events keep their exact JSON,
which the hash chain and the audit compare byte for byte."""


def optional_field() -> Any:
    """A keyword-only field, None by default and absent from the JSON while None."""
    return dataclasses.field(default=None, kw_only=True, metadata=OMITTED_WHEN_NONE)


def omitted_when_none(field: dataclasses.Field[Any]) -> bool:
    return bool(field.metadata.get("omitted_when_none"))


def to_json(value: Any) -> Any:
    if isinstance(value, Card):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass_json(value)
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    return value


def _dataclass_json(value: Any) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    cls: type = type(value)
    for name, optional in _json_fields(cls):
        item = getattr(value, name)
        if item is not None or not optional:
            shown[name] = to_json(item)
    return shown


@cache
def _json_fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """(name, omitted when None) of each field, once per class."""
    return tuple((f.name, omitted_when_none(f)) for f in dataclasses.fields(cls))


def type_hints(cls: type) -> dict[str, Any]:
    """The class's resolved annotations, once per class. Not cached itself: the cache's wrapper
    takes Hashable arguments, which mypy refuses a frozen dataclass's class."""
    return _type_hints(cls)


@cache
def _type_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, value: Any) -> Any:
    """Rebuild a value of type `tp` from what `to_json` produced."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Card:
        return Card.from_json(value)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        return from_json(next(arg for arg in args if arg is not type(None)), value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], item) for item in value)
        if not args:
            return tuple(value)
        return tuple(from_json(arg, item) for arg, item in zip(args, value, strict=True))
    if origin in (list, Sequence):
        return [from_json(args[0], item) for item in value]
    if origin in (dict, Mapping):
        return {_key(args[0], key): from_json(args[1], item) for key, item in value.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = type_hints(tp)
        # A field with a default may be absent (added after such data was stored).
        names = [f.name for f in dataclasses.fields(tp) if f.name in value or _required(f)]
        return tp(**{name: from_json(hints[name], value[name]) for name in names})
    return value


def _key(tp: Any, key: str) -> Any:
    """A dict key back from JSON, where `to_json` wrote it as a string."""
    return int(key) if tp is int else from_json(tp, key)


def _required(field: dataclasses.Field[Any]) -> bool:
    no_default = field.default is dataclasses.MISSING
    return no_default and field.default_factory is dataclasses.MISSING


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def deal_commitment(salt: str, deck: tuple[Card, ...]) -> str:
    """sha256(salt || canonical deck): published at the deal, checkable once the salt is shown."""
    payload = salt + canonical_json([card.to_json() for card in deck])
    return hashlib.sha256(payload.encode()).hexdigest()
