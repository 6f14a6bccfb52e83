"""The hash chain that lets a game's log prove itself, specified byte for byte in docs/audit.md.

Format 2 (every game created since the chain carried a format):

    hash = lowercase hex SHA-256 of the canonical JSON (RFC 8785) of
           {"chain": 2, "game_id", "version", "prev_hash", "type", "seat", "visible_to",
            "recorded_at", "data", "nonce"}

`nonce` is 32 hex digits (128 random bits) on every event whose data is not public, and null on
the others: without it, a hash over a few hidden cards could be confirmed by guessing them.

Format 1 (games created before): sha256 over the UTF-8 text `prev_hash` followed by the
canonical JSON of {game_id, version, type, seat, data, visible_to, recorded_at}, with
`recorded_at` spelled `+00:00`, no nonce. Such games publish no head before they end.

Everything here is pure, so an offline verifier needs only this module.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domain.kit.codec import canonical_json

GENESIS = "0" * 64
CURRENT_FORMAT = 2
FORMATS = (1, 2)
NONCE = re.compile(r"[0-9a-f]{32}")
RECORDED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z")  # the one spelling


def canonical_bytes(value: Any) -> bytes:
    """RFC 8785 bytes for the values a log holds (objects with ASCII keys, arrays, strings,
    integers, booleans, null); tests hold it to the reference implementation."""
    return canonical_json(value).encode("utf-8")


def timestamp(moment: datetime) -> str:
    """The one spelling of a moment: UTC, microseconds, `Z` (2026-11-30T12:00:00.000000Z).
    (isoformat, not strftime: the same text in half the time, and every hashed event has one.)"""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def event_hash(chain_format: int, game_id: str, prev_hash: str, record: Mapping[str, Any]) -> str:
    """The hash of one event record (export field names, `recorded_at` in the `Z` spelling)."""
    if chain_format == 1:
        return _legacy_hash(game_id, prev_hash, record)
    body = {
        "chain": 2,
        "game_id": game_id,
        "version": record["version"],
        "prev_hash": prev_hash,
        "type": record["type"],
        "seat": record["seat"],
        "visible_to": record["visible_to"],
        "recorded_at": record["recorded_at"],
        "data": record["data"],
        "nonce": record["nonce"],
    }
    return hashlib.sha256(canonical_bytes(body)).hexdigest()


def _legacy_hash(game_id: str, prev_hash: str, record: Mapping[str, Any]) -> str:
    fields = {
        "game_id": game_id,
        "version": record["version"],
        "type": record["type"],
        "seat": record["seat"],
        "data": record["data"],
        "visible_to": record["visible_to"],
        "recorded_at": _legacy_timestamp(record["recorded_at"]),
    }
    return hashlib.sha256((prev_hash + canonical_json(fields)).encode("utf-8")).hexdigest()


def _legacy_timestamp(spelled: str) -> str:
    return spelled[:-1] + "+00:00" if spelled.endswith("Z") else spelled


def nonce_is_well_formed(chain_format: int, record: Mapping[str, Any]) -> bool:
    """Format 2: a nonce exactly on the events that are not public."""
    nonce = record.get("nonce")
    if chain_format == 1:
        return nonce is None
    if record["visible_to"] is None:
        return nonce is None
    return isinstance(nonce, str) and NONCE.fullmatch(nonce) is not None


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    head: str  # the recomputed hash of the last event (GENESIS for none)
    first_bad_version: int | None  # where the chain breaks: versions, links, nonces or hashes


def check_chain(
    chain_format: int, game_id: str, records: Sequence[Mapping[str, Any]]
) -> ChainCheck:
    """Every event has the next version, links to the one before and has its recorded hash."""
    prev = GENESIS
    for expected, record in enumerate(records, start=1):
        if (
            type(record["version"]) is not int
            or record["version"] != expected
            or not isinstance(record["recorded_at"], str)
            or RECORDED_AT.fullmatch(record["recorded_at"]) is None
            or record["prev_hash"] != prev
            or not nonce_is_well_formed(chain_format, record)
            or event_hash(chain_format, game_id, prev, record) != record["hash"]
        ):
            return ChainCheck(False, records[-1]["hash"], expected)
        prev = record["hash"]
    return ChainCheck(True, prev, None)
