"""docs/audit.md section 10's test vectors, parsed from the guide itself: each recomputes from
the rule the guide spells out and from events/audit/log_format.py alike, so neither the guide
nor the code can drift; and a signed note opens only as the guide says it does."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.audit.log_format import (
    EMPTY_ROOT,
    Checkpoint,
    NoteError,
    leaf_bytes,
    leaf_hash,
    note_key_id,
    open_checkpoint,
    sign_checkpoint,
)
from events.audit.log_verify import verify_consistency, verify_inclusion
from events.audit.signing import HeadSigner, raw_public_key
from tests.audit.naive_tree import NaiveTree

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text("utf-8")


def between(name: str, fence: str) -> str:
    found = re.search(f"<!-- {name}:begin -->\n{fence}\n(.*?)```\n<!-- {name}:end -->", GUIDE, re.S)
    assert found, f"docs/audit.md has no {name} block"
    return found.group(1)


VECTORS = json.loads(between("log-vectors", "```json"))
NOTE = between("log-note", "```").encode("utf-8")
SIGNER = HeadSigner(
    Ed25519PrivateKey.from_private_bytes(bytes.fromhex(VECTORS["key"]["private_key_seed_hex"]))
)
KEY = SIGNER.public_key
ORIGIN = VECTORS["origin"]
LEAVES = [entry["leaf_utf8"].encode("utf-8") for entry in VECTORS["leaves"]]
TREE = NaiveTree(LEAVES)


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def test_the_key_is_the_published_test_key_and_its_note_key_id_is_as_spelled():
    raw = raw_public_key(KEY)
    assert b64(raw) == VECTORS["key"]["public_key"]
    spelled = hashlib.sha256(ORIGIN.encode() + b"\n" + b"\x01" + raw).digest()[:4]
    assert spelled.hex() == VECTORS["key"]["note_key_id_hex"] == note_key_id(ORIGIN, KEY).hex()


@pytest.mark.parametrize("entry", VECTORS["leaves"], ids=lambda entry: entry["game_id"])
def test_each_leaf_is_the_canonical_json_of_its_four_keys_and_hashes_with_a_zero_byte(entry):
    fields = {key: entry[key] for key in ("game_id", "head", "type", "version")}
    spelled = json.dumps(fields, sort_keys=True, separators=(",", ":")).encode("utf-8")
    made = leaf_bytes(entry["game_id"], entry["head"], entry["type"], entry["version"])
    assert spelled == made == entry["leaf_utf8"].encode("utf-8")
    assert hashlib.sha256(b"\x00" + made).hexdigest() == entry["leaf_hash_hex"]
    assert leaf_hash(made).hex() == entry["leaf_hash_hex"]


def test_the_roots_are_rfc_9162s_of_the_first_n_leaves():
    assert VECTORS["roots_hex"] == [TREE.root(n).hex() for n in range(len(LEAVES) + 1)]
    assert VECTORS["roots_hex"][0] == EMPTY_ROOT.hex()


def test_the_checkpoint_is_three_lines_origin_size_and_base64_root():
    root = bytes.fromhex(VECTORS["roots_hex"][3])
    spelled = f"{ORIGIN}\n3\n{b64(root)}\n"
    assert spelled == VECTORS["checkpoint_utf8"] == Checkpoint(ORIGIN, 3, root).body().decode()


def test_the_signed_note_is_byte_for_byte_the_checkpoint_an_empty_line_and_one_signature():
    body = VECTORS["checkpoint_utf8"].encode("utf-8")
    signature = Ed25519PrivateKey.from_private_bytes(
        bytes.fromhex(VECTORS["key"]["private_key_seed_hex"])
    ).sign(body)
    line = f"\u2014 {ORIGIN} {b64(note_key_id(ORIGIN, KEY) + signature)}\n".encode()
    spelled = body + b"\n" + line
    checkpoint = Checkpoint(ORIGIN, 3, bytes.fromhex(VECTORS["roots_hex"][3]))
    assert spelled == NOTE == VECTORS["signed_note_utf8"].encode("utf-8")
    assert sign_checkpoint(checkpoint, SIGNER) == NOTE
    assert open_checkpoint(NOTE, KEY) == checkpoint


def test_the_inclusion_proof_is_the_rfcs_path_and_verifies():
    proof = VECTORS["inclusion"]
    hashes = [base64.b64decode(h) for h in proof["hashes"]]
    assert hashes == TREE.inclusion(proof["index"], proof["size"])
    root = bytes.fromhex(VECTORS["roots_hex"][proof["size"]])
    assert verify_inclusion(leaf_hash(LEAVES[proof["index"]]), proof["index"], proof["size"],
                            hashes, root)  # fmt: skip


def test_the_consistency_proof_is_the_rfcs_proof_and_verifies():
    proof = VECTORS["consistency"]
    hashes = [base64.b64decode(h) for h in proof["hashes"]]
    first, second = proof["from"], proof["to"]
    assert hashes == TREE.consistency(first, second)
    roots = [bytes.fromhex(VECTORS["roots_hex"][n]) for n in (first, second)]
    assert verify_consistency(first, second, *roots, hashes)


def altered(note: bytes, old: bytes, new: bytes) -> bytes:
    assert old in note
    return note.replace(old, new, 1)


@pytest.mark.parametrize(
    "change",
    [
        (b"\n3\n", b"\n4\n"),  # the size
        (b"cardroom.example/log\n3", b"cardroom.example/lag\n3"),  # the origin, body only
        (b"ZXq5", b"ZXq6"),  # the root
    ],
    ids=["size", "origin", "root"],
)
def test_a_note_whose_body_is_altered_does_not_open(change):
    with pytest.raises(NoteError):
        open_checkpoint(altered(NOTE, *change), KEY)


def test_a_note_whose_signature_is_altered_does_not_open():
    body, line = NOTE.rsplit(b"\n\n", 1)
    dash, name, signature = line.decode().rstrip("\n").split(" ")
    raw = bytearray(base64.b64decode(signature))
    raw[10] ^= 1
    forged = body + b"\n\n" + f"{dash} {name} {b64(bytes(raw))}\n".encode()
    with pytest.raises(NoteError, match="does not hold"):
        open_checkpoint(forged, KEY)


def test_a_note_signed_by_another_key_only_does_not_open():
    other = HeadSigner(Ed25519PrivateKey.from_private_bytes(bytes(32)))
    note = sign_checkpoint(open_checkpoint(NOTE, KEY), other)
    with pytest.raises(NoteError, match="no signature by this key"):
        open_checkpoint(note, KEY)


def test_an_unknown_extra_signers_line_is_ignored():
    witness = HeadSigner(Ed25519PrivateKey.from_private_bytes(bytes(32)))
    body = VECTORS["checkpoint_utf8"].encode()
    signature = note_key_id("witness.example", witness.public_key) + witness.sign_bytes(body)
    line = f"\u2014 witness.example {b64(signature)}\n"
    for note in (NOTE + line.encode(), altered(NOTE, b"\n\n", b"\n\n" + line.encode())):
        assert open_checkpoint(note, KEY) == open_checkpoint(NOTE, KEY)


def test_a_line_that_is_not_a_signature_line_before_the_keys_is_refused():
    with pytest.raises(NoteError, match="not a signature line"):
        open_checkpoint(altered(NOTE, b"\n\n", b"\n\nhello\n"), KEY)
