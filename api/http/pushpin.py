"""Whether a request came through the deployment's Pushpin: it carries a `Grip-Sig` that Pushpin
signed (a JWT, HS256, under the key events.stream_channels.pushpin_key derives from the signing
key), not yet expired. A client that reaches the API directly and sends a `Grip-Sig` of its own
is an ordinary client: it cannot have a stream held for it, nor ask a held stream's next link
with positions of its choosing (api/streams/grip.py), nor pass as Pushpin past the rate limits.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from functools import lru_cache

from flask import g, request

from api.services import services
from events.audit.signing import HeadSigner
from events.stream_channels import PUSHPIN_ISSUER, pushpin_key


def through_pushpin() -> bool:
    if "through_pushpin" not in g:
        token = request.headers.get("Grip-Sig")
        g.through_pushpin = token is not None and signed_by_pushpin(
            token, _key(services().signer), time.time()
        )
    return bool(g.through_pushpin)


def signed_by_pushpin(token: str, key: bytes, now: float) -> bool:
    try:
        head, claims, mac = token.split(".")
        expected = hmac.new(key, f"{head}.{claims}".encode("ascii"), hashlib.sha256).digest()
        if not hmac.compare_digest(_decoded(mac), expected):
            return False
        header, body = json.loads(_decoded(head)), json.loads(_decoded(claims))
        return (
            header.get("alg") == "HS256"
            and body.get("iss") == PUSHPIN_ISSUER
            and float(body["exp"]) > now
        )
    except (ValueError, TypeError, KeyError, AttributeError):  # not a JWT of the right shape
        return False


def _decoded(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


@lru_cache(maxsize=4)
def _key(signer: HeadSigner) -> bytes:
    return pushpin_key(signer).encode("ascii")  # Pushpin uses its sig_key's text as the key
