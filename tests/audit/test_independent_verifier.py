"""A verifier written from docs/audit.md alone (tests/audit/independent_verifier.py) reaches the
verdicts of `python -m events.audit.verify` on the chain, the signature and the deals: on genuine
exports of every game, on the guide's examples, and on exports corrupted every way we know of.
Where they agree, the guide says enough to check an export without the project's code."""

from __future__ import annotations

import ast
import base64
import json
import random
import string
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import GAME_TYPES
from events.audit.signing import HeadSigner
from events.audit.verify import verify_bytes
from tests.audit import independent_verifier
from tests.audit.corruptions import flipped, legacy_file, reformatted
from tests.events.exports import (
    SIGNER,
    export_of,
    lines_of,
    rechained,
    seeded_export_of,
    text_of,
)
from tests.events.forgeries import FORGERIES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "audit"
KEY = json.dumps(SIGNER.public_description()).encode()
OTHER_KEY = HeadSigner(Ed25519PrivateKey.generate()).public_description()["public_key_pem"]
BASE64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/"
Verdicts = tuple  # (format ok, (chain ok, first bad version), signature ok, deals ok)
ALL_OK: Verdicts = (True, (True, None), True, True)
REFUSED: Verdicts = (False, None, None, None)  # the format fails: nothing else is checked


def projects(raw: bytes, key: bytes | str | None) -> Verdicts:
    """What `events.audit.verify` says of the chain, the signature and the deals."""
    said: list[str] = []
    verify_bytes(raw, said.append, key=key)
    if any(line.startswith("FAIL format") for line in said):
        return REFUSED
    chain = next(line for line in said if line.split()[1] == "chain:")
    broken = chain.removeprefix("FAIL chain: breaks at version ")
    version = int(broken) if broken.isdigit() else None
    signature = next((line.split()[0] for line in said if " signature:" in line), "skip")
    deals = next(line for line in said if line.split()[1] == "deals:")
    outcome = {"ok": True, "FAIL": False, "skip": None}
    return (True, (chain.startswith("ok"), version), outcome[signature], deals.startswith("ok"))


def independent(raw: bytes, key: bytes | str | None) -> Verdicts:
    given = key.encode() if isinstance(key, str) else key
    verdict = independent_verifier.verify(raw, given)
    if not verdict.format_ok:
        return REFUSED
    chain = (verdict.chain_ok, verdict.first_bad_version)
    signed = None if verdict.signature_ok is None else verdict.signature_ok and verdict.key_id_ok
    return (True, chain, signed, verdict.deals_ok)


def seeds_of(raw: bytes) -> tuple[bool | None, bool | None]:
    """What both say of the seeds: (ok, or None without seeds; the version of the problem)."""
    said: list[str] = []
    verify_bytes(raw, said.append)
    line = next((line for line in said if line.split()[1] == "seeds:"), None)
    if line is None:  # the format failed
        return None, None
    bad = line.removeprefix("FAIL seeds: v").split(":")[0]
    return {"ok": True, "FAIL": False, "skip": None}[line.split()[0]], (
        int(bad) if line.startswith("FAIL") and bad.isdigit() else None
    )


def agree(text: str | bytes, key: bytes | str | None = KEY) -> Verdicts:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    verdicts = projects(raw, key)
    assert independent(raw, key) == verdicts
    outsider = independent_verifier.verify(raw)
    if outsider.format_ok:
        assert seeds_of(raw) == (outsider.seeds_ok, outsider.bad_seed_version)
    return verdicts


def test_the_verifier_imports_nothing_but_the_standard_library_and_cryptography():
    tree = ast.parse(Path(independent_verifier.__file__).read_text("utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    tops = {name.split(".")[0] for name in imported}
    assert tops and tops <= set(sys.stdlib_module_names) | {"__future__", "cryptography"}
    assert not tops & {"api", "domain", "events", "workers", "embedded", "tests"}


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_genuine_export_of_every_game_passes_both(game_type_id):
    assert agree(export_of(game_type_id)) == ALL_OK
    assert agree(export_of(game_type_id), key=None) == (True, (True, None), None, True)
    assert agree(seeded_export_of(game_type_id)) == ALL_OK


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_byte_changed_anywhere_in_a_seeded_game_gets_the_same_verdicts(game_type_id):
    raw, rng = seeded_export_of(game_type_id).encode("utf-8"), random.Random(game_type_id)
    for _ in range(20):
        agree(flipped(raw, rng))


def test_the_guides_examples_get_the_same_verdicts():
    key = (DOCS / "example-key.json").read_bytes()
    assert agree((DOCS / "example-export.ndjson").read_bytes(), key) == ALL_OK
    fair = (DOCS / "example-fair.ndjson").read_bytes()
    assert agree(fair, key) == ALL_OK
    assert independent_verifier.verify(fair, key).deals_fair is True
    forged = agree((DOCS / "example-forged.ndjson").read_bytes(), key)
    assert forged == (True, (True, None), False, True)  # rehashed: only the signature catches it


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_byte_changed_anywhere_gets_the_same_verdicts(game_type_id):
    raw, rng = export_of(game_type_id).encode("utf-8"), random.Random(game_type_id)
    verdicts = [agree(flipped(raw, rng)) for _ in range(40)]
    assert any(format_ok for format_ok, *_ in verdicts)  # some reach the checks past the format


@pytest.mark.parametrize("game_type_id", sorted(GAME_TYPES))
def test_a_card_changed_without_rehashing_breaks_both_chains_at_its_version(game_type_id):
    lines = lines_of(export_of(game_type_id))
    changed = next(line for line in lines[len(lines) // 2 :] if "card" in line["data"])
    changed["data"]["card"]["rank"] += 1
    assert agree(text_of(lines)) == (True, (False, changed["version"]), True, True)


def test_a_deck_changed_without_rehashing_fails_both_chains_and_deals():
    lines = lines_of(export_of("saint_poker"))
    sealed = next(line for line in lines[1:] if line["type"] == "DeckSealed")
    sealed["data"]["deck"].reverse()
    assert agree(text_of(lines)) == (True, (False, sealed["version"]), True, False)


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_a_rehashed_forgery_passes_both_chains_and_fails_both_signatures(forgery):
    lines, _ = FORGERIES[forgery](lines_of(export_of("st_patrick")))
    assert agree(rechained(lines))[:3] == (True, (True, None), False)


def test_a_wrong_key_or_an_unreadable_one_fails_both_signatures():
    text = export_of("ouroboros_trick")
    assert agree(text, key=OTHER_KEY)[2] is False
    assert agree(text, key=b"not a key")[2] is False


def test_a_format_1_chain_and_a_legacy_file_get_the_same_verdicts():
    lines = lines_of(export_of("trick_and_snipers"))
    lines[0]["chain_format"] = 1
    for line in lines[1:]:
        line["nonce"] = None
    legacy = rechained(lines, signer=SIGNER)
    assert agree(legacy) == (True, (True, None), True, True)
    assert agree(legacy_file(legacy), key=None) == (True, (True, None), None, True)
    assert agree(reformatted(legacy)) == REFUSED


def test_a_legacy_file_may_spell_its_times_either_way_and_both_verifiers_accept_both():
    lines = lines_of(export_of("trick_and_snipers"))
    lines[0]["chain_format"] = 1
    for line in lines[1:]:
        line["nonce"] = None
    plus_zero = legacy_file(rechained(lines, signer=SIGNER))
    header, *events = lines_of(plus_zero)
    events[::2] = [
        e | {"recorded_at": e["recorded_at"].replace("+00:00", "Z")} for e in events[::2]
    ]
    mixed = text_of([header, *events])
    assert agree(plus_zero, key=None) == agree(mixed, key=None) == (True, (True, None), None, True)


def test_a_head_pinned_during_the_game_anchors_the_events_up_to_it():
    lines = lines_of(export_of("saint_poker"))
    forged, version = FORGERIES["card changed"](lines)
    raw = rechained(forged).encode("utf-8")
    before, at = lines[version - 1]["hash"], lines[version]["hash"]
    assert independent_verifier.verify(raw, pins={version - 1: before}).pins_ok is True
    assert independent_verifier.verify(raw, pins={version: at}).pins_ok is False


def test_a_key_id_that_is_not_the_given_keys_fails_both_signatures():
    lines = lines_of(export_of("trick_and_snipers"))
    lines[0]["key_id"] = "0123456789abcdef"
    assert agree(text_of(lines)) == (True, (True, None), False, True)
    assert independent_verifier.verify(text_of(lines).encode(), KEY).key_id_ok is False


def test_a_signature_spelled_another_way_fails_both():
    """Base64 ignores the 4 unused bits of the last character: the same bytes, spelled otherwise."""
    lines = lines_of(export_of("trick_and_snipers"))
    signature = lines[0]["head_signature"]
    last = BASE64.index(signature[-3])
    respelled = signature[:-3] + BASE64[last + 1] + "=="
    assert last % 16 == 0 and base64.b64decode(respelled) == base64.b64decode(signature)
    lines[0]["head_signature"] = respelled
    assert agree(text_of(lines))[2] is False
