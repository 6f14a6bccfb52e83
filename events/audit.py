"""The checks an auditor runs on a game's log, pure (no database), shared by GET /audit and the
offline verifier. They work on export records (events/export.py `event_record`), so the server
and an offline copy are checked by the very same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import table as tables
from domain.cards import Card
from domain.codec import deal_commitment, from_json
from domain.games import get_game_type
from events.hashchain import GENESIS, hash_event

Record = dict[str, Any]


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    head: str  # the hash of the last event (GENESIS for none)
    first_bad_version: int | None  # where the chain breaks: versions, links or hashes


def check_chain(game_id: str, records: Sequence[Record]) -> ChainCheck:
    """Every event links to the one before, has the next version and its recorded hash."""
    prev = GENESIS
    for expected, record in enumerate(records, start=1):
        fields = {
            "game_id": game_id,
            "version": record["version"],
            "type": record["type"],
            "seat": record["seat"],
            "data": record["data"],
            "visible_to": record["visible_to"],
            "recorded_at": record["recorded_at"],
        }
        if (
            record["version"] != expected
            or record["prev_hash"] != prev
            or hash_event(prev, fields) != record["hash"]
        ):
            return ChainCheck(False, records[-1]["hash"], expected)
        prev = record["hash"]
    return ChainCheck(True, prev, None)


@dataclass(frozen=True)
class DealCheck:
    ok: bool
    checked: int  # deals whose commitment was recomputed
    bad_versions: list[int] = field(default_factory=list)  # of the DealCommitted that fail


def check_deals(records: Sequence[Record]) -> DealCheck:
    """The k-th DealCommitted against the k-th DeckSealed: sha256(salt || canonical deck)."""
    committed = [r for r in records if r["type"] == "DealCommitted"]
    sealed = [r for r in records if r["type"] == "DeckSealed"]
    bad = [c["version"] for c, s in zip(committed, sealed, strict=False) if not _matches(c, s)]
    # A commitment without its sealed deck (or the reverse) cannot be checked: a failure.
    extra = committed[len(sealed) :] + sealed[len(committed) :]
    bad += [r["version"] for r in extra]
    return DealCheck(not bad, min(len(committed), len(sealed)), sorted(bad))


def _matches(committed: Record, sealed: Record) -> bool:
    try:
        deck = tuple(Card.from_json(card) for card in sealed["data"]["deck"])
        if committed["data"].get("round") != sealed["data"].get("round"):
            return False
        return deal_commitment(sealed["data"]["salt"], deck) == committed["data"]["commitment"]
    except (AttributeError, KeyError, TypeError, ValueError):  # a malformed deal: not checked
        return False


def fold_records(records: Sequence[Record]) -> tables.Table:
    """The table folded from nothing, with the domain only (no cache, no snapshot). Raises on a
    log the domain cannot read (unknown types, missing fields)."""
    if not records or records[0]["type"] != "TableCreated":
        raise ValueError("a log starts with TableCreated")
    created = from_json(tables.TableCreated, records[0]["data"])
    table = tables.create(get_game_type(created.game_type), created)
    for record in records[1:]:
        cls = tables.event_class(table.game_type, record["type"])
        table = tables.evolve(table, from_json(cls, record["data"]))
    return table
