"""Reading an export file back: canonical lines, a header and event lines of known keys.

Exports of format `cardroom-export/1` (before the chain carried a format) are read as
chain format 1, without nonces or a signature.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from domain.kit.codec import canonical_json
from events.audit.export import EVENT_KEYS, FORMAT, HEADER_KEYS
from events.audit.export_log import LOG_KEY, LogProof, log_proof_from

LEGACY_FORMAT = "cardroom-export/1"
LEGACY_HEADER_KEYS = HEADER_KEYS - {"chain_format", "head_signature", "key_id"}
LEGACY_EVENT_KEYS = EVENT_KEYS - {"nonce"}


class Refused(Exception):
    """The file is not a complete, well-formed export."""


@dataclass(frozen=True)
class Export:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    log: LogProof | None = None  # the header's "log": where the game is in the public log


def _no_floats(text: str) -> Any:
    raise ValueError(f"{text} is not an integer: an export holds integers only")


def _line(number: int, raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw, parse_float=_no_floats, parse_constant=_no_floats)
        canonical = canonical_json(value)
    except (ValueError, UnicodeError, RecursionError) as error:
        raise Refused(f"line {number} is not JSON of an export: {error}") from None
    if not isinstance(value, dict) or canonical != raw or not _in_profile(value):
        raise Refused(f"line {number} is not a canonical JSON object")
    return value


SAFE_INTEGER = 2**53 - 1


def _in_profile(value: Any) -> bool:
    """What RFC 8785 and our canonical JSON agree on: integers within ±(2**53 - 1), object keys
    in ASCII (key order is then the same by code point and by UTF-16 unit)."""
    if isinstance(value, dict):
        return all(k.isascii() and _in_profile(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_in_profile(item) for item in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return -SAFE_INTEGER <= value <= SAFE_INTEGER
    return True


def parse(text: str) -> Export:
    if not text.endswith("\n"):
        raise Refused("the last line does not end with a newline")
    head, *events = [_line(n, raw) for n, raw in enumerate(text[:-1].split("\n"), start=1)]
    legacy = head.get("format") == LEGACY_FORMAT
    if head.get("kind") != "header" or not (legacy or head.get("format") == FORMAT):
        raise Refused(f"line 1 is not a {FORMAT} header")
    if head.get("complete") is not True:
        raise Refused("an unfinished game's export is only a view: nothing here proves itself")
    given = set(head) if legacy else set(head) - {LOG_KEY}  # "log" once the game is in the log
    if given != (LEGACY_HEADER_KEYS if legacy else HEADER_KEYS):
        raise Refused(f"the header's keys are not {sorted(HEADER_KEYS)}")
    if not legacy and head["chain_format"] not in (1, 2):
        raise Refused(f"chain format {head['chain_format']!r} is not 1 or 2")
    keys = LEGACY_EVENT_KEYS if legacy else EVENT_KEYS
    for number, event in enumerate(events, start=2):
        if set(event) != keys or event["kind"] != "event":
            raise Refused(f"line {number} is not an event line")
    if legacy:
        head = {**head, "chain_format": 1, "head_signature": None, "key_id": None}
        events = [{**event, "nonce": None, "recorded_at": _z(event)} for event in events]
    return Export(head, events, _log(head))


def _log(head: dict[str, Any]) -> LogProof | None:
    if LOG_KEY not in head:
        return None
    try:
        return log_proof_from(head[LOG_KEY])
    except ValueError as error:
        raise Refused(f"the header's log is not an inclusion proof: {error}") from None


def _z(event: dict[str, Any]) -> Any:
    """Format-1 exports spelled moments `+00:00`; the chain's one spelling ends with `Z`."""
    spelled = event["recorded_at"]
    if isinstance(spelled, str) and spelled.endswith("+00:00"):
        return spelled.removesuffix("+00:00") + "Z"
    return spelled
