"""docs/audit/: every test vector recomputes with the project's code, the example exports get the
verdicts they promise from `python -m events.audit.verify`, and the generator writes the very same
bytes again, so that nothing there can go stale."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.kit.cards import Card
from domain.kit.codec import canonical_json, deal_commitment
from events.audit.chain import GENESIS, canonical_bytes, event_hash, nonce_is_well_formed
from events.audit.signing import (
    head_message,
    key_id,
    public_key_from,
    raw_public_key,
    signature_is_valid,
)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "audit"
VECTORS = json.loads((DOCS / "vectors.json").read_text("utf-8"))


def run(*args: str) -> subprocess.CompletedProcess:
    """In a fresh process with no database, as an outsider runs it."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    command = [sys.executable, "-m", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def spelled(vector: dict, name: str) -> bytes:
    """The bytes a vector spells twice, as UTF-8 text and as hex: both must agree."""
    raw = bytes.fromhex(vector[f"{name}_hex"])
    assert raw == vector[f"{name}_utf8"].encode("utf-8")
    return raw


def test_the_files_are_exactly_what_the_generator_writes(tmp_path):
    made = run("tests.audit.make_vectors", str(tmp_path))
    assert made.returncode == 0, made.stderr
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == sorted(path.name for path in DOCS.iterdir())
    for name in written:
        stale = f"docs/audit/{name} is stale: run python -m tests.audit.make_vectors"
        assert (tmp_path / name).read_bytes() == (DOCS / name).read_bytes(), stale


@pytest.mark.parametrize("vector", VECTORS["canonical_json"], ids=lambda v: v["canonical_utf8"])
def test_each_canonical_json_vector_is_the_projects_canonical_json(vector):
    assert canonical_bytes(vector["value"]) == spelled(vector, "canonical")


@pytest.mark.parametrize("vector", VECTORS["event_hashes"], ids=lambda v: v["description"])
def test_each_event_vector_hashes_the_export_line_plus_chain_and_game_id(vector):
    line, hashed = vector["export_line"], vector["hashed_object"]
    game_id = hashed["game_id"]
    assert hashed == {k: v for k, v in line.items() if k not in {"kind", "hash"}} | {
        "chain": 2,
        "game_id": game_id,
    }
    raw = spelled(vector, "canonical")
    assert raw == canonical_bytes(hashed)
    assert hashlib.sha256(raw).hexdigest() == vector["hash"] == line["hash"]
    assert event_hash(2, game_id, line["prev_hash"], line) == vector["hash"]
    assert nonce_is_well_formed(2, line)


def test_the_private_event_vector_has_a_nonce_and_the_public_one_has_none():
    public, private = VECTORS["event_hashes"]
    assert public["export_line"]["visible_to"] is None and public["export_line"]["nonce"] is None
    assert private["export_line"]["visible_to"] and len(private["export_line"]["nonce"]) == 32


def test_the_legacy_vector_is_the_prev_hash_text_then_seven_fields_at_plus_zero():
    vector = VECTORS["legacy_event_hash"]
    fields = vector["hashed_fields"]
    assert set(fields) == set(vector["record"]) - {"nonce"} | {"game_id"} and len(fields) == 7
    assert fields["recorded_at"].endswith("+00:00")
    raw = spelled(vector, "hashed")
    assert raw == (vector["prev_hash"] + canonical_json(fields)).encode("utf-8")
    digest = event_hash(1, vector["game_id"], vector["prev_hash"], vector["record"])
    assert hashlib.sha256(raw).hexdigest() == digest == vector["hash"]


def test_the_deal_vector_is_the_salt_then_the_canonical_deck():
    vector = VECTORS["deal_commitment"]
    salt, deck = vector["salt"], vector["deck"]
    assert len(salt) == 32 and int(salt, 16) >= 0
    raw = spelled(vector, "hashed")
    assert raw == (salt + canonical_json(deck)).encode("utf-8")
    cards = tuple(Card.from_json(card) for card in deck)
    assert hashlib.sha256(raw).hexdigest() == deal_commitment(salt, cards) == vector["commitment"]


def test_the_head_signature_verifies_with_the_published_test_key():
    vector, test_key = VECTORS["head_signature"], VECTORS["test_key"]
    seed = bytes.fromhex(test_key["private_key_seed_hex"])
    derived = raw_public_key(Ed25519PrivateKey.from_private_bytes(seed).public_key())
    for given in (vector["public_key"], vector["public_key_pem"], test_key["public_key_pem"]):
        key = public_key_from(given)
        assert raw_public_key(key) == derived and key_id(key) == vector["key_id"]
    head = (vector["game_id"], vector["version"], vector["chain_head"])
    assert head_message(*head) == spelled(vector, "message")
    assert signature_is_valid(public_key_from(vector["public_key"]), *head, vector["signature"])
    assert json.loads((DOCS / "example-key.json").read_text())["public_key"] == vector["public_key"]
    assert vector["chain_head"] != GENESIS


@pytest.mark.parametrize("name", sorted(VECTORS["examples"]))
def test_each_example_export_gets_its_promised_verdict_from_the_command_line(name):
    expected = VECTORS["examples"][name]
    checked = run(
        "events.audit.verify", f"docs/audit/{name}", "--key", "docs/audit/example-key.json"
    )
    said = checked.stdout.splitlines()
    assert said[-1] == expected["verdict"] and expected["command"].endswith(
        " ".join(checked.args[3:])
    )
    assert checked.returncode == (0 if expected["verdict"] == "VERIFIED" else 1), said
    failed = [line.split(":")[0].removeprefix("FAIL").strip() for line in said if "FAIL" in line]
    assert failed == expected.get("failing_checks", [])
    if "first_bad_version" in expected:
        assert any(
            line.startswith(f"FAIL rules: v{expected['first_bad_version']}:") for line in said
        )
