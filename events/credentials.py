"""Bearer secrets (seat tokens, invites): how they are made, and the hash under which they are
stored, compared and named. The hash names a credential wherever one must be told apart from
another without holding the secret: its open streams, its stream tickets, its rate limits."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def token_hash(token: str) -> str:
    """SHA-256, hex: a fast hash is enough for secrets this long."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
