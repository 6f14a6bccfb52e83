"""JSON text for what the service writes and reads in bulk: answers, stream frames, event data
in Postgres. orjson writes the same JSON as `json.dumps(value, separators=(",", ":"),
ensure_ascii=False)` in a fraction of the time; what it refuses (an integer beyond 64 bits, a
lone surrogate) goes to the standard library, which writes it as it always did.

The hash chain's canonical bytes are not written here: RFC 8785 is domain/kit/codec.py's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

# Dict keys that are not strings (a seat number) are written as json.dumps writes them.
_OPTIONS = orjson.OPT_NON_STR_KEYS
# With a `default`, what json.dumps would hand it (dates, dataclasses) goes to it too.
_TO_DEFAULT = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """Compact JSON, UTF-8. `default` turns what JSON has no type for into what it has."""
    option = _OPTIONS if default is None else _OPTIONS | _TO_DEFAULT
    try:
        return orjson.dumps(value, default=default, option=option)
    except orjson.JSONEncodeError:
        # ASCII escapes: a lone surrogate has no UTF-8, its escape is still JSON.
        return json.dumps(value, default=default, separators=(",", ":")).encode("ascii")


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)  # what JSON allows and orjson refuses (an integer over 64 bits)
