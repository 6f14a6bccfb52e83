"""A game's log as NDJSON that proves itself offline (`python -m events.audit.verify FILE`).

Every line is canonical JSON (RFC 8785: sorted keys, no spaces, UTF-8) followed by "\\n", so each
value has exactly one spelling and the verifier can refuse any other. The first line is the
header:

    {"kind": "header", "format": "cardroom-export/2", "complete": true, "game_id", "type",
     "status", "version", "chain_format", "chain_head", "head_signature", "key_id", "seats",
     "options", "result"}

and, once the game's leaf is in the public log of finished games, "log": the leaf's index, its
inclusion proof, and the tree size and signed checkpoint the proof is relative to
(events/audit/export_log.py),

then one line per stored event, oldest first, holding every field the hash chain covers:

    {"kind": "event", "version", "type", "seat", "visible_to", "recorded_at", "data", "nonce",
     "prev_hash", "hash"}

The hash of each event is events/audit/chain.py's, the head signature events/audit/signing.py's; the
bytes are specified in docs/audit.md and the lines' shape in docs/audit/export.schema.json. Before
the game is over an export is only the caller's view: "complete": false, a "viewer" seat, events as
GET /games/{id}/events shows them and no hashes or nonces.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.kit.codec import canonical_json, to_json
from domain.tables.table import Table
from domain.tables.view import view_table
from events.audit.export_log import LOG_KEY, LogProof

if TYPE_CHECKING:  # the offline verifier imports this module: no database driver at run time
    from events.postgres.store import StoredEvent

FORMAT = "cardroom-export/2"
MEDIA_TYPE = "application/x-ndjson"
DERIVED_KEYS = frozenset({"game_id", "type", "status", "version", "seats", "options", "result"})
"""The header keys a verifier derives again from the events."""
HEADER_KEYS = (
    DERIVED_KEYS
    | {"kind", "format", "complete", "chain_format", "chain_head"}
    | {
        "head_signature",
        "key_id",
    }
)
EVENT_KEYS = frozenset(
    {"kind", "version", "type", "seat", "visible_to", "recorded_at", "data", "nonce"}
    | {"prev_hash", "hash"}
)


def line(value: dict[str, Any]) -> str:
    return canonical_json(value) + "\n"


@dataclass(frozen=True)
class Anchor:
    """How a game's chain is hashed and what vouches for its head."""

    chain_format: int
    chain_head: str
    head_signature: str | None
    key_id: str | None


def derived_header(game_id: str, table: Table, version: int) -> dict[str, Any]:
    """The header keys that follow from the events alone (the verifier compares them)."""
    return {
        "game_id": game_id,
        "type": table.game_type.id,
        "status": table.status,
        "version": version,
        "seats": seats_of(table),
        "options": to_json(dict(table.options)),
        "result": result_of(table),
    }


def header(
    game_id: UUID, table: Table, version: int, anchor: Anchor, log: LogProof | None = None
) -> dict[str, Any]:
    in_log = {LOG_KEY: log.to_json()} if log is not None else {}
    return {
        "kind": "header",
        "format": FORMAT,
        "complete": True,
        **derived_header(str(game_id), table, version),
        "chain_format": anchor.chain_format,
        "chain_head": anchor.chain_head,
        "head_signature": anchor.head_signature,
        "key_id": anchor.key_id if anchor.head_signature else None,
        **in_log,
    }


def seats_of(table: Table) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = to_json(table.seats)
    return seats


def result_of(table: Table) -> dict[str, Any] | None:
    return view_table(table, None).get("result")


def event_record(event: StoredEvent) -> dict[str, Any]:
    return {"kind": "event", **event.record(), "prev_hash": event.prev_hash, "hash": event.hash}


def full_export(
    game_id: UUID,
    table: Table,
    events: list[StoredEvent],
    anchor: Anchor,
    log: LogProof | None = None,
) -> Iterator[str]:
    """`events` end at the anchor's head (the version the table is at); `log` is where that
    head is in the public log, once it is."""
    yield line(header(game_id, table, len(events), anchor, log))
    for event in events:
        yield line(event_record(event))


def viewer_export(
    game_id: UUID, table: Table, version: int, viewer: int | None, events: Iterable[dict[str, Any]]
) -> Iterator[str]:
    """An unfinished game: the caller's view only (events already rendered for the viewer)."""
    yield line(
        {
            "kind": "header",
            "format": FORMAT,
            "complete": False,
            "game_id": str(game_id),
            "type": table.game_type.id,
            "status": table.status,
            "version": version,
            "viewer": viewer,
        }
    )
    for event in events:
        yield line({"kind": "event", **event})
