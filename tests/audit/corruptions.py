"""Ways to damage an export for the verifiers to catch: a byte changed, a file converted to the
legacy format, a line re-spelled."""

from __future__ import annotations

import json
import random
import string

from tests.events.exports import lines_of, text_of

CLASSES = (string.digits, "abcdef", string.ascii_letters, '{}[]:,"\\ ')


def flipped(raw: bytes, rng: random.Random) -> bytes:
    """One byte changed: half the time in the header, most often into a byte of its own kind
    (a digit for a digit, a hex digit for a hex digit) so that the file still parses and the
    deeper checks are reached."""
    header_end = raw.index(b"\n")
    at = rng.randrange(header_end) if rng.random() < 0.5 else rng.randrange(len(raw))
    old = chr(raw[at])
    kind = next((chars for chars in CLASSES if old in chars), None)
    candidates = [c for c in kind if c != old] if kind and rng.random() < 0.8 else None
    new = ord(rng.choice(candidates)) if candidates else rng.randrange(256)
    changed = bytearray(raw)
    changed[at] = new if new != raw[at] else (new + 1) % 256
    return bytes(changed)


def legacy_file(text: str) -> str:
    """A chain-format-1 export spelled as cardroom-export/1: no chain_format, signature, key id
    or nonces, and times at +00:00."""
    header, *events = lines_of(text)
    dropped = {"chain_format", "head_signature", "key_id"}
    header = {k: v for k, v in header.items() if k not in dropped}
    events = [
        {k: v for k, v in e.items() if k != "nonce"}
        | {"recorded_at": e["recorded_at"].removesuffix("Z") + "+00:00"}
        for e in events
    ]
    return text_of([header | {"format": "cardroom-export/1"}, *events])


def reformatted(text: str) -> str:
    """The same values spelled with spaces: no longer canonical."""
    return "".join(json.dumps(line, sort_keys=True) + "\n" for line in lines_of(text))
