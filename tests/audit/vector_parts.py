"""The parts of docs/audit/vectors.json that spell out bytes: each computed by the project's code
and asserted equal to the rule docs/audit.md states, written out independently here."""

from __future__ import annotations

import hashlib
from typing import Any

from domain.kit.cards import Card
from domain.kit.codec import canonical_json, deal_commitment
from events.audit.chain import event_hash

HASHED = ("version", "type", "seat", "visible_to", "recorded_at", "data", "nonce")


def text_and_hex(name: str, raw: bytes) -> dict[str, str]:
    return {f"{name}_utf8": raw.decode("utf-8"), f"{name}_hex": raw.hex()}


def canonical_examples() -> list[dict[str, Any]]:
    """Values that show each rule: key order, escapes, non-ASCII kept as UTF-8, integers."""
    values: list[Any] = [
        {"b": 1, "a": 2, "_": 3, "B": 4, "a_b": 5, "aa": 6},
        {"name": 'Zoë "the ace" O\'Neil \\ 🂡', "tab\there": "line\nbreak\r\u0001\u001f\u007f"},
        [0, -1, 9007199254740991, -9007199254740991, True, False, None, "", [], {}],
        {"\u00e9": "é", "\u2028": "\u2028"},
    ]
    return [
        {"value": value, **text_and_hex("canonical", canonical_json(value).encode("utf-8"))}
        for value in values
    ]


def event_vector(head: dict[str, Any], record: dict[str, Any], what: str) -> dict[str, Any]:
    """Format 2: sha256 of the canonical JSON of the record's hashed fields plus chain, game id
    and prev_hash."""
    hashed = {"chain": 2, "game_id": head["game_id"], "prev_hash": record["prev_hash"]}
    hashed |= {key: record[key] for key in HASHED}
    raw = canonical_json(hashed).encode("utf-8")
    digest = hashlib.sha256(raw).hexdigest()
    assert digest == record["hash"] == event_hash(2, head["game_id"], record["prev_hash"], record)
    return {
        "description": what,
        "chain_format": 2,
        "export_line": record,
        "hashed_object": hashed,
        **text_and_hex("canonical", raw),
        "hash": digest,
    }


def legacy_vector(head: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """Format 1: sha256 of prev_hash (hex text) then the canonical JSON of seven fields, with
    recorded_at spelled +00:00; no nonce, no chain, no prev_hash inside the object."""
    legacy = {**record, "nonce": None}
    fields = {key: legacy[key] for key in HASHED if key != "nonce"}
    fields |= {"game_id": head["game_id"], "recorded_at": record["recorded_at"][:-1] + "+00:00"}
    raw = (record["prev_hash"] + canonical_json(fields)).encode("utf-8")
    digest = hashlib.sha256(raw).hexdigest()
    assert digest == event_hash(1, head["game_id"], record["prev_hash"], legacy)
    return {
        "description": "the same event hashed as a format-1 (legacy) chain would hash it",
        "chain_format": 1,
        "game_id": head["game_id"],
        "prev_hash": record["prev_hash"],
        "record": {key: legacy[key] for key in HASHED},
        "hashed_fields": fields,
        **text_and_hex("hashed", raw),
        "hash": digest,
    }


def deal_vector(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The first deal: sha256 of the salt's text then the canonical JSON of the deck."""
    committed = next(e for e in events if e["type"] == "DealCommitted")
    sealed = next(e for e in events if e["type"] == "DeckSealed")
    salt, deck = sealed["data"]["salt"], sealed["data"]["deck"]
    raw = (salt + canonical_json([{"rank": c["rank"], "suit": c["suit"]} for c in deck])).encode()
    digest = hashlib.sha256(raw).hexdigest()
    cards = tuple(Card.from_json(card) for card in deck)
    assert digest == committed["data"]["commitment"] == deal_commitment(salt, cards)
    return {
        "committed_version": committed["version"],
        "sealed_version": sealed["version"],
        "salt": salt,
        "deck": deck,
        **text_and_hex("hashed", raw),
        "commitment": digest,
    }
