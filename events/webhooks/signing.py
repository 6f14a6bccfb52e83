"""Signing deliveries as the Standard Webhooks specification says (with its own package, not by
hand), and keeping each endpoint's secret sealed at rest.

The server must keep a secret it can sign with, so unlike a key it cannot be hashed: it is
sealed with AES-GCM (events/sealing.py) under a key derived from the server's secret and the
endpoint's id, its player's id authenticated with it, so a database alone opens none, and a
sealed secret copied to another endpoint's row does not open there.
"""

from __future__ import annotations

import base64
import secrets
from datetime import datetime
from uuid import UUID

from standardwebhooks import Webhook

from events.sealing import Sealer

SECRET_PREFIX = "whsec_"  # the specification's prefix for a signing secret
SECRET_BYTES = 32
SEALING_PURPOSE = "cardroom/webhook-secrets"  # events.audit.signing.HeadSigner.derived_secret


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def message_id(delivery: UUID) -> str:
    """A delivery's `webhook-id`: the same on each of its attempts, for receivers to dedupe."""
    return f"msg_{delivery.hex}"


def signed_headers(secret: str, message: str, at: datetime, body: bytes) -> dict[str, str]:
    """The three Standard Webhooks headers of a delivery of `body` sent at `at` (aware)."""
    signature = Webhook(secret).sign(msg_id=message, timestamp=at, data=body.decode("utf-8"))
    return {
        "webhook-id": message,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
    }


def seal_secret(sealer: Sealer, endpoint: UUID, player: UUID, secret: str) -> str:
    return sealer.seal(secret.encode("ascii"), str(endpoint), _context(player))


def open_secret(sealer: Sealer, endpoint: UUID, player: UUID, sealed: str) -> str:
    return sealer.unseal(sealed, str(endpoint), _context(player)).decode("ascii")


def _context(player: UUID) -> str:
    return f"webhook-secret:{player}"
