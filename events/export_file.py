"""Reading an export file back: canonical lines, a header and event lines of known keys.

Exports of format `cardroom-export/1` (before the chain carried a format) are read as
chain format 1, without nonces or a signature.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from domain.codec import canonical_json
from events.export import EVENT_KEYS, FORMAT, HEADER_KEYS

LEGACY_FORMAT = "cardroom-export/1"
LEGACY_HEADER_KEYS = HEADER_KEYS - {"chain_format", "head_signature", "key_id"}
LEGACY_EVENT_KEYS = EVENT_KEYS - {"nonce"}


class Refused(Exception):
    """The file is not a complete, well-formed export."""


@dataclass(frozen=True)
class Export:
    header: dict[str, Any]
    events: list[dict[str, Any]]


def _no_floats(text: str) -> Any:
    raise ValueError(f"{text} is not an integer: an export holds integers only")


def _line(number: int, raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw, parse_float=_no_floats, parse_constant=_no_floats)
        canonical = canonical_json(value)
    except (ValueError, UnicodeError, RecursionError) as error:
        raise Refused(f"line {number} is not JSON of an export: {error}") from None
    if not isinstance(value, dict) or canonical != raw:
        raise Refused(f"line {number} is not a canonical JSON object")
    return value


def parse(text: str) -> Export:
    if not text.endswith("\n"):
        raise Refused("the last line does not end with a newline")
    head, *events = [_line(n, raw) for n, raw in enumerate(text[:-1].split("\n"), start=1)]
    legacy = head.get("format") == LEGACY_FORMAT
    if head.get("kind") != "header" or not (legacy or head.get("format") == FORMAT):
        raise Refused(f"line 1 is not a {FORMAT} header")
    if head.get("complete") is not True:
        raise Refused("an unfinished game's export is only a view: nothing here proves itself")
    if set(head) != (LEGACY_HEADER_KEYS if legacy else HEADER_KEYS):
        raise Refused(f"the header's keys are not {sorted(HEADER_KEYS)}")
    if not legacy and head["chain_format"] not in (1, 2):
        raise Refused(f"chain format {head['chain_format']!r} is not 1 or 2")
    keys = LEGACY_EVENT_KEYS if legacy else EVENT_KEYS
    for number, event in enumerate(events, start=2):
        if set(event) != keys or event["kind"] != "event":
            raise Refused(f"line {number} is not an event line")
    if legacy:
        head = {**head, "chain_format": 1, "head_signature": None, "key_id": None}
        events = [{**event, "nonce": None} for event in events]
    return Export(head, events)
