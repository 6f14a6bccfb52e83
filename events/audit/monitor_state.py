"""What a monitor remembers between runs, in its state directory:

    audit-key.json   the audit key it trusted on its first run ({"key_id", "public_key"})
    tree.json        the last checkpoint it verified (the signed note, as the server sent it)
                     and that tree's perfect subtrees: {"checkpoint", "size", "hashes"}
    checkpoint       a copy of that signed note, for `verify --checkpoint`
    conflicting-checkpoint-<time>   a signed checkpoint that did not extend the remembered
                     one: the server's own signature on a split view, kept as evidence

Each file is written whole or not at all (a new file, then a rename), so a run cut short
leaves the last good state.
"""

from __future__ import annotations

import base64
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.audit.export_log import hash_from
from events.audit.log_frontier import Frontier
from events.audit.signing import key_id, public_key_from, raw_public_key

KEY_FILE, TREE_FILE, CHECKPOINT_FILE = "audit-key.json", "tree.json", "checkpoint"


class StateError(Exception):
    """The state directory cannot be read or written, or does not hold together."""


@dataclass(frozen=True)
class Remembered:
    key: Ed25519PublicKey | None  # None before the first run
    note: bytes | None
    frontier: Frontier


def load(directory: Path) -> Remembered:
    try:
        key_text = _read(directory / KEY_FILE)
        tree_text = _read(directory / TREE_FILE)
        key = public_key_from(key_text) if key_text is not None else None
        note, frontier = _tree(tree_text) if tree_text is not None else (None, Frontier())
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise StateError(f"the state in {directory} cannot be read: {error}") from None
    if not frontier.is_well_formed():
        raise StateError(f"the state in {directory} does not hold together: start afresh")
    return Remembered(key, note, frontier)


def save_key(directory: Path, key: Ed25519PublicKey) -> None:
    raw = base64.b64encode(raw_public_key(key)).decode("ascii")
    _write(directory / KEY_FILE, json.dumps({"key_id": key_id(key), "public_key": raw}))


def save_tree(directory: Path, note: bytes, frontier: Frontier) -> None:
    hashes = [base64.b64encode(h).decode("ascii") for h in frontier.hashes]
    tree = {"checkpoint": note.decode("utf-8"), "size": frontier.size, "hashes": hashes}
    _write(directory / TREE_FILE, json.dumps(tree, indent=1))
    _write(directory / CHECKPOINT_FILE, note)


def keep_evidence(directory: Path, note: bytes) -> Path:
    path = directory / f"conflicting-checkpoint-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    _write(path, note)
    return path


def _tree(text: bytes) -> tuple[bytes, Frontier]:
    value = json.loads(text)
    size = value["size"]
    if not isinstance(size, int) or isinstance(size, bool):
        raise ValueError("the tree's size is not a number")
    return value["checkpoint"].encode("utf-8"), Frontier(
        size, [hash_from(h) for h in value["hashes"]]
    )


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _write(path: Path, content: str | bytes) -> None:
    raw = content.encode("utf-8") if isinstance(content, str) else content
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        draft.write_bytes(raw)
        os.replace(draft, path)
    except OSError as error:
        raise StateError(f"cannot write {path}: {error}") from None
