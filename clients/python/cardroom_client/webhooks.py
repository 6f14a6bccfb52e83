"""Checking a webhook delivery as the Standard Webhooks specification says: the signature is
HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` with the secret's bytes (after its
`whsec_` prefix, base64), sent as `v1,<base64>` (several, space-separated, when keys rotate).
A dozen lines of stdlib, so no dependency."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping

from .errors import CardroomError
from .models import Notice

TOLERANCE_SECONDS = 300  # the specification's advice against replays


class WebhookVerificationError(CardroomError):
    """The delivery is not signed with this secret, or is too old or too new."""


def verify_webhook(
    secret: str, headers: Mapping[str, str], body: bytes | str, now: float | None = None
) -> Notice:
    """The delivered notice, once its signature and timestamp check out; raises
    WebhookVerificationError otherwise."""
    lower = {name.lower(): value for name, value in headers.items()}
    try:
        message_id, stamp = lower["webhook-id"], lower["webhook-timestamp"]
        signatures = lower["webhook-signature"].split()
        at = int(stamp)
    except (KeyError, ValueError) as error:
        raise WebhookVerificationError(f"missing or malformed header: {error}") from None
    if abs((time.time() if now is None else now) - at) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("timestamp outside the tolerance")
    data = body.encode("utf-8") if isinstance(body, str) else body
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = message_id.encode() + b"." + stamp.encode() + b"." + data
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    if not any(
        version == "v1" and hmac.compare_digest(value, expected)
        for version, _, value in (signature.partition(",") for signature in signatures)
    ):
        raise WebhookVerificationError("no valid signature")
    return Notice.of(json.loads(data))
