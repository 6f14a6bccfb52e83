"""Exports of finished bot games, chained and signed as the server does, built in memory; and
what a forger without the key can do to them."""

from __future__ import annotations

import json
import random
import secrets
import uuid
from datetime import UTC, datetime, timedelta
from functools import cache

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import GAME_TYPES
from domain.kit.codec import canonical_json, to_json
from domain.kit.decider import Event
from domain.tables.selfplay import play_out
from domain.tables.table import Table
from events.audit.chain import GENESIS, event_hash
from events.audit.export import Anchor, full_export
from events.audit.signing import HeadSigner
from events.postgres.store import StoredEvent
from tests.events.seeded_games import seeded_game

SIGNER = HeadSigner(Ed25519PrivateKey.generate())


@cache
def export_of(game_type_id: str, seed: int = 3) -> str:
    """A finished game of bots played by the domain, chained and signed as the store does: a
    table from before seeded deals, its decks shuffled by the server."""
    game_type = GAME_TYPES[game_type_id]
    level = "random" if "random" in game_type.bot_levels else game_type.bot_levels[0]
    table, events = play_out(game_type, [level] * game_type.min_players, random.Random(seed))
    return export_from(uuid.UUID(int=seed), table, events)


@cache
def seeded_export_of(
    game_type_id: str, in_advance: bool = True, joiner: bool = True, seed: int = 3
) -> str:
    """A finished seeded game (tests/events/seeded_games.py), chained and signed: fair when the
    commitment came `in_advance`."""
    game_id = uuid.UUID(int=1000 + seed)
    table, events = seeded_game(game_type_id, str(game_id), in_advance, joiner, seed)
    return export_from(game_id, table, events)


def export_from(game_id: uuid.UUID, table: Table, events: list[Event]) -> str:
    """The export of a finished game's events, each chained and the head signed as the store
    does (a fresh nonce on every non-public event)."""
    moment, prev = datetime(2026, 1, 1, tzinfo=UTC), GENESIS
    stored = []
    for version, event in enumerate(events, start=1):
        visible = event.visible_to()
        nonce = None if visible is None else secrets.token_hex(16)
        data = json.loads(canonical_json(to_json(event)))
        at = moment + timedelta(milliseconds=version)
        one = StoredEvent(
            game_id, version, type(event).__name__, data, event.actor(), visible, at, prev, "", 0,
            nonce,
        )  # fmt: skip
        digest = event_hash(2, str(game_id), prev, one.record())
        stored.append(StoredEvent(*_fields(one)[:8], digest, 0, nonce))
        prev = digest
    anchor = Anchor(2, prev, SIGNER.sign(str(game_id), len(stored), prev), SIGNER.key_id)
    return "".join(full_export(game_id, table, stored, anchor))


def _fields(event: StoredEvent) -> tuple:
    return tuple(getattr(event, name) for name in StoredEvent.__dataclass_fields__)


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def text_of(lines: list[dict]) -> str:
    return "".join(canonical_json(line) + "\n" for line in lines)


def rechained(lines: list[dict], signer: HeadSigner | None = None) -> str:
    """The lines renumbered and every hash recomputed, as a forger who rewrote history would;
    the header's head and version follow, its signature too when the forger has a key."""
    head, events = lines[0], lines[1:]
    prev = GENESIS
    for version, record in enumerate(events, start=1):
        record["version"] = version
        record["prev_hash"] = prev
        record["hash"] = prev = event_hash(head["chain_format"], head["game_id"], prev, record)
    head["chain_head"], head["version"] = prev, len(events)
    if signer is not None:
        head["head_signature"] = signer.sign(head["game_id"], len(events), prev)
        head["key_id"] = signer.key_id
    return text_of(lines)
