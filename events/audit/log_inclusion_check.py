"""The `log` check of an export: its game's leaf, recomputed from what the other checks
verified, is in the public log's tree of a signed checkpoint.

The checkpoint is the export's own (signed with the key given), or, better, one obtained
elsewhere (`--checkpoint`): that one binds the server to what it showed everyone else, as
monitors compare. The proof is the export's own, or one fetched for the checkpoint's size
(`--proof`, the JSON of GET /log/proof/inclusion?game=&size=). docs/audit.md section 10.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.audit.export_file import Export
from events.audit.export_log import LogProof, log_proof_from
from events.audit.log_format import Checkpoint, NoteError, leaf_bytes, leaf_hash, open_checkpoint
from events.audit.log_verify import verify_inclusion
from events.audit.signing import key_id, public_key_from
from events.audit.verdicts import Report

PROOF_KEYS = frozenset({"hashes", "index", "size"})


@dataclass(frozen=True)
class Leaf:
    """A finished game as its leaf names it, each field verified by the other checks."""

    game_id: str
    head: str
    game_type: str
    version: int

    def bytes(self) -> bytes:
        return leaf_bytes(self.game_id, self.head, self.game_type, self.version)


def check_in_log(
    export: Export,
    report: Report,
    key: str | bytes | None,
    note: bytes | None,
    proof_json: bytes | None,
) -> None:
    """The `log` line: only when the export is in the log, or a checkpoint or proof is given."""
    try:
        proof = proof_from_json(proof_json) if proof_json is not None else export.log
    except ValueError as error:
        report.add("FAIL", "log", f"the --proof file is not an inclusion proof: {error}")
        return
    if note is None and proof is None:
        return
    own = note is None
    note = note if note is not None else export.log.checkpoint if export.log else None
    if note is None:
        report.add("FAIL", "log", "no checkpoint to check the proof against: give --checkpoint")
        return
    if key is None:
        said = f"{_place(proof)}: without --key its checkpoint is not checked"
        report.add("skip", "log", said)
        return
    try:
        public_key = public_key_from(key)
    except ValueError as error:
        report.add("FAIL", "log", f"unreadable key: {error}")
        return
    if not (report.passed("chain") and report.passed("result")):
        said = "no leaf to look for: the chain or the re-decided result does not check"
        report.add("FAIL", "log", said)
        return
    head = export.header
    leaf = Leaf(head["game_id"], head["chain_head"], head["type"], len(export.events))
    holds, said = included(leaf, proof, public_key, note)
    if holds and own:
        said += " (the export's own checkpoint: --checkpoint checks one obtained elsewhere)"
    report.add("ok" if holds else "FAIL", "log", said)


def _place(proof: LogProof | None) -> str:
    if proof is None:
        return "the export carries no inclusion proof"
    return f"leaf {proof.index} of the public log's tree of {proof.size} leaves"


def proof_from_json(raw: bytes) -> LogProof:
    """The body of GET /log/proof/inclusion; ValueError saying what is wrong otherwise."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeError, RecursionError) as error:
        raise ValueError(f"not JSON: {error}") from None
    return log_proof_from(value, PROOF_KEYS)


def included(
    leaf: Leaf, proof: LogProof | None, key: Ed25519PublicKey, note: bytes
) -> tuple[bool, str]:
    """Whether the proof puts the leaf in the tree of the signed note `note`, and what holds
    or the plain reason why not."""
    try:
        checkpoint = open_checkpoint(note, key)
    except NoteError as error:
        return False, f"the checkpoint does not open with key {key_id(key)}: {error}"
    fetch = f"GET /log/proof/inclusion?game={leaf.game_id}&size={checkpoint.size}"
    if proof is None:
        return False, (
            "the export carries no inclusion proof (the game was not in the log yet when it was"
            f" exported): fetch one with {fetch} and give it with --proof"
        )
    if proof.size != checkpoint.size:
        return False, (
            f"the proof is for the log's tree of {proof.size} leaves, the checkpoint's tree has"
            f" {checkpoint.size}: fetch a proof for that size with {fetch} and give it with"
            " --proof"
        )
    path = list(proof.hashes)
    if not verify_inclusion(
        leaf_hash(leaf.bytes()), proof.index, proof.size, path, checkpoint.root
    ):
        return False, (
            f"the game's leaf (head {leaf.head}, version {leaf.version}) is not leaf"
            f" {proof.index} of the checkpoint's tree of {checkpoint.size}: the proof does not"
            " lead to its root"
        )
    return True, _holds(proof, checkpoint, key)


def _holds(proof: LogProof, checkpoint: Checkpoint, key: Ed25519PublicKey) -> str:
    return (
        f"the game's leaf is leaf {proof.index} of the tree of {checkpoint.size} leaves of"
        f" {checkpoint.origin}, whose checkpoint is signed by key {key_id(key)}"
    )
