"""Requests carrying an Idempotency-Key: claimed in the command's transaction, answered again on
a retry from what the first one recorded, refused when the key comes back with another body.

What is recorded is not an HTTP response but what the command did (game, seat, versions), from
which the API renders the same answer again; seat tokens, which exist nowhere else, are sealed
(events/sealing.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


@dataclass(frozen=True)
class IdempotentRequest:
    scope: str  # e.g. "create", "action:<game>:<seat>"
    key: str  # the client's Idempotency-Key; only a keyed hash of it is stored
    request_hash: str  # a fingerprint of the request (`request_hash`)


def request_hash(*parts: str | bytes) -> str:
    """A fingerprint of the request (method, path, canonical body...) to detect key reuse."""
    digest = hashlib.sha256()
    for part in parts:
        raw = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(raw).to_bytes(8, "big") + raw)  # length-prefixed: no ambiguity
    return digest.hexdigest()


class ClaimKind(StrEnum):
    NEW = "new"  # yours: do the work, then complete() in the same transaction
    REPLAY = "replay"  # done before: answer from `record` again
    IN_PROGRESS = "in_progress"  # another request with this key is running now
    REUSED = "reused"  # the key was used for a different request


@dataclass(frozen=True, slots=True)
class Claim:
    kind: ClaimKind
    record: Any = None
