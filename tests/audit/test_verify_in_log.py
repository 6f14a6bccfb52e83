"""`python -m events.audit.verify EXPORT --key KEY --checkpoint NOTE [--proof PROOF]`: an export
says VERIFIED against a checkpoint obtained elsewhere only when its game's leaf, recomputed from
the export's own verified head, is in that checkpoint's tree; otherwise a plain reason."""

from __future__ import annotations

import base64
import json
import random
import uuid
from pathlib import Path

import jsonschema_rs
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import GAME_TYPES
from domain.tables.selfplay import play_out
from events.audit.export import Anchor, header
from events.audit.export_log import LogProof
from events.audit.log_format import Checkpoint, leaf_bytes, sign_checkpoint
from events.audit.signing import HeadSigner
from events.audit.verify import main
from tests.audit.naive_tree import NaiveTree
from tests.events.exports import SIGNER, export_of, lines_of, rechained, text_of

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "audit" / "export.schema.json"
ORIGIN = "cardroom.test/log"
GAME = "trick_and_snipers"
AT = 3  # the game's leaf among others: leaves 0..2 before it, more after


def the_game() -> list[dict]:
    return lines_of(export_of(GAME))


def leaf_of(lines: list[dict]) -> bytes:
    head = lines[0]
    return leaf_bytes(head["game_id"], head["chain_head"], head["type"], head["version"])


def other_leaf(n: int) -> bytes:
    return leaf_bytes(str(uuid.UUID(int=10_000 + n)), f"{n:064x}", GAME, 30 + n)


def log_with(leaf: bytes, size: int) -> NaiveTree:
    """A log of `size` leaves whose leaf AT is `leaf`."""
    return NaiveTree([*map(other_leaf, range(AT)), leaf, *map(other_leaf, range(AT, size - 1))])


def note(tree: NaiveTree, size: int, signer: HeadSigner = SIGNER) -> bytes:
    return sign_checkpoint(Checkpoint(ORIGIN, size, tree.root(size)), signer)


def in_log(lines: list[dict], tree: NaiveTree, size: int) -> list[dict]:
    """The export as the server gives it once its leaf is in the tree of `size` leaves."""
    proof = LogProof(AT, size, tuple(tree.inclusion(AT, size)), note(tree, size))
    return [{**lines[0], "log": proof.to_json()}, *lines[1:]]


def proof_json(tree: NaiveTree, size: int) -> str:
    hashes = [base64.b64encode(h).decode() for h in tree.inclusion(AT, size)]
    return json.dumps({"index": AT, "size": size, "hashes": hashes})


@pytest.fixture()
def run(tmp_path, capsys):
    """main() on files written from what is given; (exit status, what it printed)."""

    def verify(export: list[dict], *, checkpoint=None, proof=None, key=True) -> tuple[int, str]:
        (tmp_path / "game.ndjson").write_text(text_of(export), "utf-8")
        args = [str(tmp_path / "game.ndjson")]
        if key:
            (tmp_path / "key.json").write_text(json.dumps(SIGNER.public_description()))
            args += ["--key", str(tmp_path / "key.json")]
        if checkpoint is not None:
            (tmp_path / "checkpoint").write_bytes(checkpoint)
            args += ["--checkpoint", str(tmp_path / "checkpoint")]
        if proof is not None:
            (tmp_path / "proof.json").write_text(proof)
            args += ["--proof", str(tmp_path / "proof.json")]
        status = main(args)
        return status, capsys.readouterr().out

    return verify


def log_line(printed: str) -> str:
    return next(line for line in printed.splitlines() if line.split(":")[0].endswith(" log"))


def test_an_export_in_the_log_verifies_against_a_checkpoint_obtained_elsewhere(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    status, printed = run(in_log(lines, tree, 6), checkpoint=note(tree, 6))
    assert status == 0, printed
    assert printed.splitlines()[-1] == "VERIFIED"
    assert log_line(printed).startswith(f"ok   log: the game's leaf is leaf {AT} of the tree of 6")


def test_a_checkpoint_of_another_size_says_plainly_which_proof_to_fetch(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 9)
    status, printed = run(in_log(lines, tree, 6), checkpoint=note(tree, 9))
    assert status == 1
    game = lines[0]["game_id"]
    assert log_line(printed) == (
        "FAIL log: the proof is for the log's tree of 6 leaves, the checkpoint's tree has 9:"
        f" fetch a proof for that size with GET /log/proof/inclusion?game={game}&size=9 and"
        " give it with --proof"
    )
    assert printed.splitlines()[-1] == "NOT VERIFIED"


def test_a_proof_fetched_for_the_checkpoints_size_verifies(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 9)
    status, printed = run(
        in_log(lines, tree, 6), checkpoint=note(tree, 9), proof=proof_json(tree, 9)
    )
    assert status == 0, printed
    assert "tree of 9 leaves" in log_line(printed)


def test_an_export_exported_before_its_leaf_was_in_the_log_verifies_with_a_fetched_proof(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 5)
    status, printed = run(lines, checkpoint=note(tree, 5))
    assert status == 1
    assert "the export carries no inclusion proof" in log_line(printed)
    assert run(lines, checkpoint=note(tree, 5), proof=proof_json(tree, 5))[0] == 0


def test_a_game_rewritten_and_re_signed_by_the_operator_is_not_the_leaf_in_the_log(run):
    """The operator holds the key: the rewritten export verifies by itself, chain, rules and
    signature, but the log kept the head it had when it was appended."""
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    rewritten = lines_of(text_of(lines))
    rewritten[5]["recorded_at"] = "2026-01-01T00:00:00.999999Z"  # hashed, checked by no rule
    rewritten = lines_of(rechained(rewritten, SIGNER))
    alone_status, alone = run(rewritten)
    assert alone_status == 0, alone
    status, printed = run(in_log(rewritten, tree, 6), checkpoint=note(tree, 6))
    assert status == 1
    head = rewritten[0]["chain_head"]
    assert log_line(printed).startswith(f"FAIL log: the game's leaf (head {head}, version")
    assert "the proof does not lead to its root" in log_line(printed)


def test_a_tampered_proof_fails(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    export = in_log(lines, tree, 6)
    hashes = export[0]["log"]["hashes"]
    hashes[1] = base64.b64encode(bytes(32)).decode()
    status, printed = run(export, checkpoint=note(tree, 6))
    assert status == 1
    assert "the proof does not lead to its root" in log_line(printed)


def test_a_checkpoint_not_signed_by_the_key_given_fails(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    stranger = HeadSigner(Ed25519PrivateKey.generate())
    status, printed = run(in_log(lines, tree, 6), checkpoint=note(tree, 6, stranger))
    assert status == 1
    assert log_line(printed) == (
        f"FAIL log: the checkpoint does not open with key {SIGNER.key_id}:"
        " the checkpoint carries no signature by this key"
    )


def test_a_checkpoint_that_is_not_a_note_fails_plainly(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    status, printed = run(in_log(lines, tree, 6), checkpoint=b"\xff\xfe not a note")
    assert status == 1
    assert "FAIL log: the checkpoint does not open" in log_line(printed)


def test_without_checkpoint_the_exports_own_is_checked_against_the_key(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    status, printed = run(in_log(lines, tree, 6))
    assert status == 0, printed
    assert log_line(printed).endswith(
        "(the export's own checkpoint: --checkpoint checks one obtained elsewhere)"
    )


def test_without_a_key_the_log_is_skipped_and_nothing_anchors(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    status, printed = run(in_log(lines, tree, 6), key=False)
    assert status == 3
    assert log_line(printed) == (
        f"skip log: leaf {AT} of the public log's tree of 6 leaves: without --key its checkpoint"
        " is not checked"
    )


def test_an_export_not_in_the_log_prints_what_it_always_did(run):
    status, printed = run(the_game())
    assert status == 0
    assert not [line for line in printed.splitlines() if " log:" in line]


@pytest.mark.parametrize(
    "broken",
    [
        {"hashes": ["not base64!"]},
        {"hashes": [base64.b64encode(bytes(31)).decode()]},
        {"index": 6},
        {"index": -1},
        {"size": "6"},
        {"checkpoint": None},
        {"extra": 1},
    ],
    ids=lambda broken: json.dumps(broken),
)
def test_a_header_log_that_is_not_an_inclusion_proof_fails_the_format(run, broken):
    lines = the_game()
    export = in_log(lines, log_with(leaf_of(lines), 6), 6)
    export[0]["log"] = {**export[0]["log"], **broken}
    status, printed = run(export)
    assert status == 1
    assert printed.startswith("FAIL format: the header's log is not an inclusion proof: ")


def test_a_proof_file_that_is_not_a_proof_fails_plainly(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    status, printed = run(lines, checkpoint=note(tree, 6), proof="{not json")
    assert status == 1
    assert log_line(printed).startswith("FAIL log: the --proof file is not an inclusion proof:")


def test_a_checkpoint_without_a_key_is_bad_usage(run):
    lines = the_game()
    tree = log_with(leaf_of(lines), 6)
    with pytest.raises(SystemExit) as exited:
        run(lines, checkpoint=note(tree, 6), key=False)
    assert exited.value.code == 2


def test_the_header_carries_the_log_after_every_other_key_unchanged():
    game_type = GAME_TYPES[GAME]
    table, _ = play_out(game_type, ["random"] * 3, random.Random(3))
    anchor = Anchor(2, "ab" * 32, "sig", "kid")
    game = uuid.UUID(int=7)
    proof = LogProof(0, 1, (), b"note\n")
    plain, logged = header(game, table, 9, anchor), header(game, table, 9, anchor, proof)
    assert logged == {**plain, "log": {"checkpoint": "note\n", "hashes": [], "index": 0, "size": 1}}


def test_the_export_schema_describes_the_headers_log():
    schema = json.loads(SCHEMA.read_text("utf-8"))
    validator = jsonschema_rs.validator_for(schema)
    lines = the_game()
    export = in_log(lines, log_with(leaf_of(lines), 6), 6)
    assert validator.is_valid(export[0])
    export[0]["log"]["hashes"][0] = base64.b64encode(bytes(31)).decode()
    assert not validator.is_valid(export[0])
