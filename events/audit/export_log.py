"""What an export says of its game's place in the public log of finished games: the leaf's
index, its inclusion proof, and the tree size and signed checkpoint the proof is relative to.

The header carries it as `"log"` once the game's leaf is in the log, and not at all before:

    "log": {"checkpoint": "<the signed note, as text>", "hashes": ["<base64>", ...],
            "index": <leaf index>, "size": <tree size>}

Nothing in it is hashed into the chain: the checkpoint is checked against the audit key, the
proof against the checkpoint (events/audit/log_inclusion_check.py), docs/audit.md 10.7.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

LOG_KEY = "log"
LOG_KEYS = frozenset({"checkpoint", "hashes", "index", "size"})
MAX_PROOF_HASHES = 64  # a tree of 2**63 leaves at most (RFC 9162's tree sizes are 64-bit)


@dataclass(frozen=True)
class LogProof:
    """Leaf `index` of the tree of `size` leaves, by the inclusion proof `hashes`."""

    index: int
    size: int
    hashes: tuple[bytes, ...]
    checkpoint: bytes | None = None  # the signed note of the tree of `size` leaves

    def to_json(self) -> dict[str, Any]:
        return {
            "checkpoint": (self.checkpoint or b"").decode("utf-8"),
            "hashes": [base64.b64encode(h).decode("ascii") for h in self.hashes],
            "index": self.index,
            "size": self.size,
        }


def log_proof_from(value: Any, keys: frozenset[str] = LOG_KEYS) -> LogProof:
    """An export's `log` (or, with `keys` lacking "checkpoint", the JSON of
    GET /log/proof/inclusion), strictly; ValueError saying what is wrong otherwise."""
    if not isinstance(value, dict) or set(value) != keys:
        raise ValueError(f"not an object of the keys {sorted(keys)}")
    index, size = value["index"], value["size"]
    if not _count(index) or not _count(size) or index >= size:
        raise ValueError(f"index {index!r} is not a leaf of a tree of size {size!r}")
    hashes = value["hashes"]
    if not isinstance(hashes, list) or len(hashes) > MAX_PROOF_HASHES:
        raise ValueError("the proof is not a list of at most 64 hashes")
    note = value.get("checkpoint")
    if "checkpoint" in keys and not isinstance(note, str):
        raise ValueError("the checkpoint is not a signed note's text")
    checkpoint = note.encode("utf-8") if isinstance(note, str) else None
    return LogProof(index, size, tuple(hash_from(h) for h in hashes), checkpoint)


def hash_from(text: Any) -> bytes:
    """A SHA-256 hash in standard base64, with its one spelling."""
    if not isinstance(text, str):
        raise ValueError("a hash is not a base64 string")
    try:
        raw = base64.b64decode(text, validate=True)
    except binascii.Error:
        raise ValueError(f"a hash is not base64: {text[:60]!r}") from None
    if len(raw) != 32 or base64.b64encode(raw).decode("ascii") != text:
        raise ValueError(f"a hash is not the base64 of 32 bytes: {text[:60]!r}")
    return raw


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63
