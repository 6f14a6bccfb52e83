"""Seals a stored idempotent response that holds seat tokens, with a key only the client has.

Tokens are stored only as hashes; the one copy kept to answer a retried request is encrypted
with a keystream of HMAC-SHA256(idempotency key, counter), so the database alone cannot read it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac


def _keystream(key: str, length: int) -> bytes:
    blocks = []
    for counter in range((length + 31) // 32):
        blocks.append(hmac.new(key.encode(), counter.to_bytes(8, "big"), hashlib.sha256).digest())
    return b"".join(blocks)[:length]


def _xor(data: bytes, key: str) -> bytes:
    return bytes(a ^ b for a, b in zip(data, _keystream(key, len(data)), strict=True))


def seal(text: str, key: str) -> str:
    return base64.b64encode(_xor(text.encode(), key)).decode()


def unseal(blob: str, key: str) -> str:
    return _xor(base64.b64decode(blob), key).decode()
