"""The bytes of the public log of finished games, as both its writer and its readers see them.

- RFC 9162 hashing: a leaf is SHA-256(0x00 || leaf bytes), a node SHA-256(0x01 || left || right).
- A leaf's bytes: the canonical JSON (RFC 8785) of {"game_id", "head", "type", "version"}.
- A checkpoint (C2SP tlog-checkpoint): "<origin>\\n<tree size>\\n<base64 root hash>\\n".
- A signed note (C2SP signed-note): the checkpoint, an empty line, then one line per signature,
  "\u2014 <key name> <base64(key id (4 bytes) || Ed25519 signature)>\\n", where the key name is the
  origin and the key id the first 4 bytes of SHA-256(name || "\\n" || 0x01 || raw public key).

docs/audit.md specifies the same with test vectors.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.audit.chain import canonical_bytes
from events.audit.signing import HeadSigner, raw_public_key

EMPTY_ROOT = hashlib.sha256(b"").digest()  # RFC 9162 §2.1.1: the hash of an empty tree
ED25519_SIGNATURE_TYPE = b"\x01"  # C2SP signed-note: the signature type byte of Ed25519
SIGNATURE_DASH = "\u2014"  # the em dash that starts each signature line
MAX_NOTE_BYTES = 1 << 20  # a reader refuses longer notes rather than parse them


def leaf_bytes(game_id: str, head: str, game_type: str, version: int) -> bytes:
    leaf = {"game_id": game_id, "head": head, "type": game_type, "version": version}
    return canonical_bytes(leaf)


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def body(self) -> bytes:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode("ascii")]
        return ("\n".join([*lines, *self.extensions]) + "\n").encode("utf-8")


class NoteError(ValueError):
    """A signed note or checkpoint that does not parse, or whose signature does not hold."""


def note_key_id(name: str, key: Ed25519PublicKey) -> bytes:
    digest = hashlib.sha256(name.encode("utf-8") + b"\n" + ED25519_SIGNATURE_TYPE)
    digest.update(raw_public_key(key))
    return digest.digest()[:4]


def sign_checkpoint(checkpoint: Checkpoint, signer: HeadSigner) -> bytes:
    """The checkpoint as a signed note, signed by the audit key under the origin's name."""
    body = checkpoint.body()
    signature = note_key_id(checkpoint.origin, signer.public_key) + signer.sign_bytes(body)
    line = f"{SIGNATURE_DASH} {checkpoint.origin} {base64.b64encode(signature).decode('ascii')}\n"
    return body + b"\n" + line.encode("utf-8")


def open_checkpoint(note: bytes, key: Ed25519PublicKey, origin: str | None = None) -> Checkpoint:
    """The checkpoint a signed note carries, once a signature by `key` under the checkpoint's
    origin holds over it (and the origin is `origin`, when given). Raises NoteError otherwise."""
    if len(note) > MAX_NOTE_BYTES:
        raise NoteError("the note is too long")
    try:
        text = note.decode("utf-8")
    except UnicodeDecodeError:
        raise NoteError("the note is not UTF-8") from None
    body, separator, signatures = text.rpartition("\n\n")
    if not separator or not signatures.endswith("\n"):
        raise NoteError("the note has no signature block")
    checkpoint = parse_checkpoint((body + "\n").encode("utf-8"))
    if origin is not None and checkpoint.origin != origin:
        raise NoteError(f"the checkpoint's origin is {checkpoint.origin!r}, not {origin!r}")
    wanted = note_key_id(checkpoint.origin, key)
    for line in signatures[:-1].split("\n"):
        signature = _signature_by(line, checkpoint.origin, wanted)
        if signature is None:
            continue
        try:
            key.verify(signature, (body + "\n").encode("utf-8"))
        except InvalidSignature:
            raise NoteError("the checkpoint's signature does not hold") from None
        return checkpoint
    raise NoteError("the checkpoint carries no signature by this key")


def _signature_by(line: str, name: str, key_id: bytes) -> bytes | None:
    """The signature a signature line carries, when it is by `name`'s key `key_id`."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != SIGNATURE_DASH:
        raise NoteError(f"not a signature line: {line[:80]!r}")
    try:
        raw = base64.b64decode(parts[2], validate=True)
    except binascii.Error:
        raise NoteError("a signature is not base64") from None
    if parts[1] != name or raw[:4] != key_id or len(raw) != 4 + 64:
        return None  # another signer's line: a note may carry several
    return raw[4:]


def parse_checkpoint(body: bytes) -> Checkpoint:
    """A checkpoint body, strictly: origin, a decimal size without leading zeros, a base64
    SHA-256 root, optional extension lines, each line ending in a newline."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise NoteError("the checkpoint is not UTF-8") from None
    if not text.endswith("\n"):
        raise NoteError("the checkpoint does not end with a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3 or not lines[0] or any(not line for line in lines[3:]):
        raise NoteError("a checkpoint has an origin, a size and a root hash, one per line")
    origin, size_text, root_text = lines[:3]
    if not size_text.isascii() or not size_text.isdigit() or size_text != str(int(size_text)):
        raise NoteError(f"the tree size is not a decimal number: {size_text[:40]!r}")
    try:
        root = base64.b64decode(root_text, validate=True)
    except binascii.Error:
        raise NoteError("the root hash is not base64") from None
    if len(root) != 32 or base64.b64encode(root).decode("ascii") != root_text:
        raise NoteError("the root hash is not a base64 SHA-256 hash")
    return Checkpoint(origin, int(size_text), root, tuple(lines[3:]))
