"""Sealed replies: what an idempotent retry must be answered with but the database must not hold
in the clear (seat tokens). AES-256-GCM, with a key derived by HKDF-SHA256 from a server secret
and the client's Idempotency-Key, so neither the database alone nor the key alone opens it;
the scope and the stored key id are authenticated with it, so a blob moved to another request
does not open."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

NONCE_BYTES = 12


class Unsealable(Exception):
    """The blob was not sealed for this request, or was altered."""


class Sealer:
    def __init__(self, server_secret: bytes) -> None:
        if len(server_secret) < 32:
            raise ValueError("the server secret needs at least 256 bits")
        self._secret = server_secret

    def key_id(self, request_key: str) -> str:
        """What the database stores for an Idempotency-Key: a keyed hash, so a leaked table
        gives no way to test guesses of the keys."""
        raw = request_key.encode("utf-8", "surrogatepass")
        return hmac.new(self._secret, raw, hashlib.sha256).hexdigest()

    def _aead(self, request_key: str) -> AESGCM:
        key = HKDF(
            algorithm=hashes.SHA256(),
            length=32,
            salt=self._secret,
            info=b"cardroom/sealed-reply/v1",
        ).derive(request_key.encode("utf-8", "surrogatepass"))
        return AESGCM(key)

    def seal(self, plaintext: bytes, request_key: str, context: str) -> str:
        nonce = os.urandom(NONCE_BYTES)
        sealed = self._aead(request_key).encrypt(nonce, plaintext, context.encode())
        return base64.b64encode(nonce + sealed).decode("ascii")

    def unseal(self, blob: str, request_key: str, context: str) -> bytes:
        try:
            raw = base64.b64decode(blob, validate=True)
            nonce, sealed = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
            return self._aead(request_key).decrypt(nonce, sealed, context.encode())
        except (InvalidTag, ValueError) as error:
            raise Unsealable("the sealed reply does not open for this request") from error
