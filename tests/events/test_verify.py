"""`python -m events.verify`: an export proves itself with no server and no database, and any
change to it, down to one byte, is caught."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.codec import canonical_json, to_json
from domain.games import GAME_TYPES
from domain.selfplay import play_out
from events.export import full_export
from events.hashchain import GENESIS, hash_event, hashed_fields
from events.verify import verify, verify_bytes

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Chained:
    """An event as the store keeps it (events/store.py StoredEvent), built here in memory."""

    game_id: uuid.UUID
    version: int
    type: str
    seat: int | None
    data: dict
    visible_to: tuple[int, ...] | None
    recorded_at: datetime
    prev_hash: str
    hash: str


@cache
def export_of(game_type_id: str, seed: int = 3) -> str:
    """A finished game of bots played by the domain, chained as the store chains it."""
    game_type = GAME_TYPES[game_type_id]
    level = "random" if "random" in game_type.bot_levels else game_type.bot_levels[0]
    table, events = play_out(game_type, [level] * game_type.min_players, random.Random(seed))
    game_id, moment, prev = uuid.UUID(int=seed), datetime(2026, 1, 1, tzinfo=UTC), GENESIS
    chained = []
    for version, event in enumerate(events, start=1):
        at = moment + timedelta(milliseconds=version)
        data = json.loads(canonical_json(to_json(event)))
        kind, seat, visible = type(event).__name__, event.actor(), event.visible_to()
        digest = hash_event(prev, hashed_fields(game_id, version, kind, seat, data, visible, at))
        chained.append(Chained(game_id, version, kind, seat, data, visible, at, prev, digest))
        prev = digest
    return "".join(full_export(game_id, table, chained))


def rechained(lines: list[dict], game_id: str) -> str:
    """The lines with every hash recomputed, as a forger who rewrote history would."""
    prev = GENESIS
    for record in lines[1:]:
        fields = {k: record[k] for k in ("version", "type", "seat", "data", "visible_to")}
        fields |= {"game_id": game_id, "recorded_at": record["recorded_at"]}
        record["prev_hash"], record["hash"] = prev, hash_event(prev, fields)
        prev = record["hash"]
    lines[0]["chain_head"] = prev
    return "".join(canonical_json(line) + "\n" for line in lines)


def checked(text: str) -> tuple[bool, list[str]]:
    said: list[str] = []
    return verify(text, said.append), said


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_finished_game_of_every_type_verifies_offline(game_type_id):
    ok, said = checked(export_of(game_type_id))
    assert ok, said
    assert [line.split(":")[0] for line in said] == [
        "ok   format",
        "ok   chain",
        "ok   deals",
        "ok   replay",
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_one_byte_altered_anywhere_is_detected(data):
    raw = bytearray(export_of("trick_and_snipers").encode("utf-8"))
    position = data.draw(st.integers(0, len(raw) - 1), label="position")
    raw[position] = data.draw(st.integers(0, 255).filter(lambda b: b != raw[position]))
    assert not verify_bytes(bytes(raw), lambda _: None)


def test_an_altered_event_is_reported_at_the_version_where_the_chain_breaks():
    lines = [json.loads(line) for line in export_of("trick_and_snipers").splitlines()]
    played = next(r for r in lines[1:] if r["type"] == "CardPlayed" and r["version"] > 20)
    played["data"]["card"]["rank"] = played["data"]["card"]["rank"] % 10 + 1
    ok, said = checked("".join(canonical_json(line) + "\n" for line in lines))
    assert not ok and f"FAIL chain: breaks at version {played['version']}" in said


def test_a_deck_that_differs_from_its_commitment_fails_even_with_a_rebuilt_chain():
    lines = [json.loads(line) for line in export_of("trick_and_snipers").splitlines()]
    sealed = next(r for r in lines[1:] if r["type"] == "DeckSealed")
    deck = sealed["data"]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    ok, said = checked(rechained(lines, lines[0]["game_id"]))
    assert not ok
    assert "ok   chain" in " ".join(said) and any(s.startswith("FAIL deals") for s in said)


def test_a_rewritten_result_fails_the_replay():
    lines = [json.loads(line) for line in export_of("trick_and_snipers").splitlines()]
    result = lines[0]["result"]
    result["winners"], result["losers"] = result["losers"], result["winners"]
    ok, said = checked(rechained(lines, lines[0]["game_id"]))
    assert not ok and any(s.startswith("FAIL replay") for s in said)


def test_the_command_line_needs_no_server_and_exits_non_zero_on_failure(tmp_path):
    good, bad = tmp_path / "good.ndjson", tmp_path / "bad.ndjson"
    text = export_of("trick_and_snipers")
    good.write_text(text, encoding="utf-8")
    bad.write_text(text.replace('"rank":', '"rank": ', 1), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    runs = [
        subprocess.run(
            [sys.executable, "-m", "events.verify", str(path)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        for path in (good, bad)
    ]
    assert runs[0].returncode == 0 and "VERIFIED" in runs[0].stdout
    assert runs[1].returncode == 1 and "NOT VERIFIED" in runs[1].stdout
