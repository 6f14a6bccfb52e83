"""`python -m events.audit.verify`: an export proves itself with no server and no database; any
change to it, down to one byte, is caught, and so is a forgery whose chain was rehashed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games import GAME_TYPES
from events.audit.signing import HeadSigner
from events.audit.verify import verify, verify_bytes
from tests.events.exports import (
    SIGNER,
    export_of,
    lines_of,
    rechained,
    seeded_export_of,
    text_of,
)
from tests.events.forgeries import FORGERIES

ROOT = Path(__file__).resolve().parents[2]
KEY = json.dumps(SIGNER.public_description())


def checked(text: str, **anchors) -> tuple[bool, list[str]]:
    said: list[str] = []
    return verify(text, said.append, **anchors), said


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_finished_game_of_every_type_verifies_offline_with_the_servers_key(game_type_id):
    ok, said = checked(export_of(game_type_id), key=KEY)
    assert ok, said
    assert [line.split(":")[0] for line in said] == [
        "ok   format",
        "ok   chain",
        "ok   rules",
        "ok   result",
        "ok   signature",
        "ok   deals",
        "skip seeds",  # a table from before seeded deals
        "info fair",
    ]


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_rehashed_forgery_fails_the_rules_at_its_version(game_type_id, forgery):
    lines, version = FORGERIES[forgery](lines_of(export_of(game_type_id)))
    ok, said = checked(rechained(lines), key=KEY)
    assert not ok
    assert "ok   chain" in " ".join(said), said  # the forger's chain holds...
    assert any(s.startswith(f"FAIL rules: v{version}:") for s in said), said  # ...the rules don't
    assert "FAIL signature: the head's signature does not verify with the given key" in said


def test_a_forgery_signed_with_another_key_fails_the_signature():
    lines, _ = FORGERIES["winner changed"](lines_of(export_of("trick_and_snipers")))
    forged = rechained(lines, signer=HeadSigner(Ed25519PrivateKey.generate()))
    ok, said = checked(forged, key=KEY)
    assert not ok and any(s.startswith("FAIL signature") for s in said)


def test_a_genuine_export_signed_with_another_key_fails_only_the_signature():
    lines = lines_of(export_of("ouroboros_trick"))
    ok, said = checked(rechained(lines, signer=HeadSigner(Ed25519PrivateKey.generate())), key=KEY)
    assert not ok
    assert [s.split(":")[0] for s in said if s.startswith("FAIL")] == ["FAIL signature"]


def test_a_head_obtained_elsewhere_pins_the_export():
    text = export_of("saint_poker")
    head = lines_of(text)[0]["chain_head"]
    assert checked(text, expect_head=head)[0]
    ok, said = checked(text, expect_head="f" * 64)
    assert not ok and any(s.startswith("FAIL head") for s in said)


def test_without_a_key_the_verifier_says_nothing_anchors_the_chain():
    ok, said = checked(export_of("trick_and_snipers"))
    assert ok and any(s.startswith("skip signature") for s in said)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_one_byte_altered_anywhere_is_detected(data):
    raw = bytearray(export_of("trick_and_snipers").encode("utf-8"))
    position = data.draw(st.integers(0, len(raw) - 1), label="position")
    raw[position] = data.draw(st.integers(0, 255).filter(lambda b: b != raw[position]))
    assert not verify_bytes(bytes(raw), lambda _: None, key=KEY)


def test_an_altered_event_is_reported_at_the_version_where_the_chain_breaks():
    lines = lines_of(export_of("trick_and_snipers"))
    played = next(r for r in lines[1:] if r["type"] == "CardPlayed" and r["version"] > 20)
    played["data"]["card"]["rank"] = played["data"]["card"]["rank"] % 10 + 1
    ok, said = checked(text_of(lines))
    assert not ok and f"FAIL chain: breaks at version {played['version']}" in said


def test_a_deck_that_differs_from_its_commitment_fails_even_with_a_rebuilt_chain():
    lines = lines_of(export_of("trick_and_snipers"))
    sealed = next(r for r in lines[1:] if r["type"] == "DeckSealed")
    deck = sealed["data"]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    ok, said = checked(rechained(lines))
    assert not ok
    assert "ok   chain" in " ".join(said) and any(s.startswith("FAIL deals") for s in said)


def test_a_public_event_given_a_nonce_breaks_the_chain_format():
    lines = lines_of(export_of("trick_and_snipers"))
    public = next(r for r in lines[1:] if r["visible_to"] is None and r["version"] > 1)
    public["nonce"] = "0" * 32
    ok, said = checked(rechained(lines))
    assert not ok and f"FAIL chain: breaks at version {public['version']}" in said


def run_verify(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "-m", "events.audit.verify", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_line_needs_no_server_and_exits_non_zero_on_failure(tmp_path):
    good, bad, key = tmp_path / "good.ndjson", tmp_path / "bad.ndjson", tmp_path / "key.pem"
    text = export_of("trick_and_snipers")
    good.write_text(text, encoding="utf-8")
    bad.write_text(text.replace('"rank":', '"rank": ', 1), encoding="utf-8")
    key.write_text(SIGNER.public_description()["public_key_pem"], encoding="ascii")
    runs = [run_verify(str(path), "--key", str(key)) for path in (good, bad)]
    assert runs[0].returncode == 0 and "VERIFIED" in runs[0].stdout, runs[0].stdout
    assert "ok   signature" in runs[0].stdout
    assert runs[1].returncode == 1 and "NOT VERIFIED" in runs[1].stdout


def test_the_command_line_has_a_real_help():
    run = run_verify("--help")
    assert run.returncode == 0
    assert "--key" in run.stdout and "--expect-head" in run.stdout and "usage:" in run.stdout
    said = " ".join(run.stdout.split())
    assert "0 VERIFIED" in said and "3 CONSISTENT, NOT ANCHORED" in said
    assert "1 NOT VERIFIED" in said and "--json" in said


def written(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.ndjson"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_consistent_file_that_nothing_anchors_is_not_verified_and_exits_3(tmp_path):
    # Given a genuine export, and no key nor head obtained elsewhere
    run = run_verify(written(tmp_path, export_of("trick_and_snipers")))
    # Then every check passes, but a script reading the status alone cannot take it as verified
    said = run.stdout.splitlines()
    assert said[-1] == "CONSISTENT, NOT ANCHORED" and run.returncode == 3, run.stdout
    assert not any(line.startswith("FAIL") for line in said)


def test_a_rehashed_legal_forgery_without_an_anchor_exits_3_not_0(tmp_path):
    """The forgeries a status-only script used to accept: legal, rehashed, unsigned."""
    lines = lines_of(export_of("st_patrick"))
    lines[0]["head_signature"] = lines[0]["key_id"] = None  # the signature stripped
    run = run_verify(written(tmp_path, text_of(lines)))
    assert run.returncode == 3 and run.stdout.splitlines()[-1] == "CONSISTENT, NOT ANCHORED"


def test_a_head_pinned_elsewhere_anchors_the_file_without_a_key(tmp_path):
    text = export_of("saint_poker")
    head = lines_of(text)[0]["chain_head"]
    run = run_verify(written(tmp_path, text), "--expect-head", head)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "VERIFIED", run.stdout


def test_json_gives_the_verdict_its_exit_status_and_every_check(tmp_path):
    key = tmp_path / "key.json"
    key.write_text(KEY, encoding="utf-8")
    text = seeded_export_of("ouroboros_trick")
    run = run_verify(written(tmp_path, text), "--key", str(key), "--json")
    report = json.loads(run.stdout)
    assert run.returncode == report["exit_status"] == 0
    assert report["verdict"] == "VERIFIED" and report["anchored"] and report["consistent"]
    assert report["deals_fair"] is True and report["game_id"] == lines_of(text)[0]["game_id"]
    assert [c["check"] for c in report["checks"]] == [
        "format", "chain", "rules", "result", "signature", "deals", "seeds", "fair",
    ]  # fmt: skip
    unanchored = json.loads(run_verify(written(tmp_path, text), "--json").stdout)
    assert unanchored["verdict"] == "CONSISTENT, NOT ANCHORED" and unanchored["exit_status"] == 3


def test_json_of_a_file_that_cannot_be_read_is_not_verified(tmp_path):
    run = run_verify(str(tmp_path / "missing.ndjson"), "--json")
    report = json.loads(run.stdout)
    assert run.returncode == 1 and report["verdict"] == "NOT VERIFIED"
    assert report["checks"][0]["check"] == "read" and report["checks"][0]["status"] == "FAIL"


def test_a_head_pinned_mid_game_pins_the_export_up_to_it():
    text = export_of("trick_and_snipers")
    tenth = lines_of(text)[10]
    assert checked(text, expect_head=f"10:{tenth['hash']}")[0]
    ok, said = checked(text, expect_head=f"11:{tenth['hash']}")
    assert not ok and any(s.startswith("FAIL head: the export's hash at version 11") for s in said)
