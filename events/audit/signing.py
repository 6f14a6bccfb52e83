"""Ed25519 signatures on chain heads, so that a log rehashed by anyone without the key fails.

The signed message is the canonical JSON (RFC 8785) of
    {"purpose": "cardroom-chain-head", "game_id", "version", "chain_head"}
and a signature travels as standard base64 (docs/audit.md). The server signs every head it
appends; `GET /audit-key` publishes the public key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from events.audit.chain import canonical_bytes

PURPOSE = "cardroom-chain-head"


def head_message(game_id: str, version: int, chain_head: str) -> bytes:
    return canonical_bytes(
        {"purpose": PURPOSE, "game_id": game_id, "version": version, "chain_head": chain_head}
    )


def raw_public_key(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    """A short name for a key: the first 16 hex digits of SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(raw_public_key(key)).hexdigest()[:16]


class HeadSigner:
    """The server's signing key."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key = private_key.public_key()
        self.key_id = key_id(self.public_key)

    def derived_secret(self, purpose: str) -> bytes:
        """A 256-bit secret for another purpose (e.g. sealing replies), derived from this key by
        HKDF, so the service keeps one secret file."""
        raw = self._key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose.encode())
        return hkdf.derive(raw)

    def sign(self, game_id: str, version: int, chain_head: str) -> str:
        signature = self._key.sign(head_message(game_id, version, chain_head))
        return base64.b64encode(signature).decode("ascii")

    def sign_bytes(self, message: bytes) -> bytes:
        """A raw Ed25519 signature over `message` (the public log's checkpoints)."""
        return self._key.sign(message)

    def public_description(self) -> dict[str, Any]:
        """What GET /audit-key serves."""
        pem = self.public_key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        return {
            "algorithm": "Ed25519",
            "key_id": self.key_id,
            "public_key": base64.b64encode(raw_public_key(self.public_key)).decode("ascii"),
            "public_key_pem": pem.decode("ascii"),
        }


def load_or_create_signer(path: str | os.PathLike[str]) -> HeadSigner:
    """The key in the PEM file at `path`, created (mode 0600) when there is none yet. Several
    processes may start at once: the key appears whole (a hard link of a finished file), and
    exactly one creator wins; the others read its key."""
    file = Path(path)
    if not file.exists():
        _create_key_file(file)
    key = serialization.load_pem_private_key(file.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{file} does not hold an Ed25519 private key")
    return HeadSigner(key)


def _create_key_file(file: Path) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    # A draft of its own per caller (threads of one process too), then one atomic link.
    draft = file.with_name(f".{file.name}.{os.getpid()}.{secrets.token_hex(8)}.tmp")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
    try:
        os.link(draft, file)
    except FileExistsError:
        pass  # another process won the race: its key is the one
    finally:
        draft.unlink()


def public_key_from(text: str | bytes) -> Ed25519PublicKey:
    """A public key given as PEM, as the JSON of GET /audit-key, or as base64 of its 32 raw
    bytes. Raises ValueError for anything else."""
    raw = text.encode() if isinstance(text, str) else text
    stripped = raw.strip()
    if stripped.startswith(b"-----BEGIN"):
        key = serialization.load_pem_public_key(stripped)
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("the PEM key is not an Ed25519 public key")
        return key
    if stripped.startswith(b"{"):
        stripped = json.loads(stripped)["public_key"].encode("ascii")
    try:
        return Ed25519PublicKey.from_public_bytes(base64.b64decode(stripped, validate=True))
    except (binascii.Error, ValueError) as error:
        raise ValueError(f"not an Ed25519 public key: {error}") from None


def signature_is_valid(
    key: Ed25519PublicKey, game_id: str, version: int, chain_head: str, signature: str | None
) -> bool:
    if not isinstance(signature, str) or not signature:
        return False
    try:
        raw = base64.b64decode(signature, validate=True)
        # One spelling only: base64 ignores a few trailing bits, which must not vary.
        if base64.b64encode(raw).decode("ascii") != signature:
            return False
        key.verify(raw, head_message(game_id, version, chain_head))
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True
