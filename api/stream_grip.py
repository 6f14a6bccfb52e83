"""Streams that Pushpin holds (GRIP): the instructions that hand a stream to Pushpin once the
app's handshake is done, and the leases that let Pushpin come back for the stream's next part.

A request came through Pushpin when it carries `Grip-Sig`. The app answers it as it answers any
client (the backlog after the resume point), plus instructions Pushpin strips: hold the
connection open (`Grip-Hold: stream`) on these channels, send `: keep-alive` every heartbeat,
and come back to this next link (`Grip-Link`) after a while, or at once when a published item
does not follow the last one the stream got (its `prev-id`). The next link carries a lease that
the server signed (HMAC): whose stream it is, so that Pushpin needs no token to come back. Each
stream has a channel of its own, never published to: Pushpin shares next-link requests that
look alike (same path, same channel positions), and no two streams' requests ever do.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import time

from flask import Response, request

from api.services import services
from events.stream_channels import stream_channel

# Pushpin comes back for an idle stream's next part after this long (±25 %): the lease and the
# stream's slot (api/stream_slots.py) are renewed then. A stream counts for LEASE_LIFETIME
# after it opened or was last renewed.
LEASE_SECONDS = 120
LEASE_LIFETIME = 3 * LEASE_SECONDS
LEASE_PURPOSE = "cardroom/stream-leases"  # events.signing.HeadSigner.derived_secret


def through_pushpin() -> bool:
    return "Grip-Sig" in request.headers


def sign(lease: dict) -> str:
    lease = {**lease, "expires": int(time.time() + LEASE_LIFETIME)}
    body = base64.urlsafe_b64encode(json.dumps(lease, separators=(",", ":")).encode())
    return f"{body.decode()}.{_mac(body)}"


def verified(token: str) -> dict | None:
    """The lease a token carries, if this server signed it and it has not expired."""
    body, _, mac = token.encode("utf-8", "surrogatepass").partition(b".")
    if not hmac.compare_digest(_mac(body).encode(), mac):
        return None
    try:
        lease = json.loads(base64.urlsafe_b64decode(body))
        return lease if lease["expires"] > time.time() else None
    except (ValueError, KeyError, TypeError):  # signed, so only an older format gets here
        return None


def last_ids() -> dict[str, str]:
    """Where Pushpin says each channel of the stream stands (`Grip-Last`), on a next link."""
    found = {}
    for header in request.headers.getlist("Grip-Last"):
        name, _, value = header.partition(";")
        found[name.strip()] = value.strip().removeprefix("last-id=")
    return found


def hold(
    response: Response,
    channels: list[tuple[str, int | None]],
    slot: str,
    next_link: str,
    heartbeat: float,
) -> Response:
    """`channels`: each with the last version sent on it (its prev-id), or None."""
    for name, prev in [*channels, (stream_channel(slot), 0)]:
        response.headers.add("Grip-Channel", name if prev is None else f"{name}; prev-id={prev}")
    response.headers["Grip-Hold"] = "stream"
    keep_alive = max(1, round(heartbeat))
    response.headers["Grip-Keep-Alive"] = (
        f": keep-alive\\n\\n; format=cstring; timeout={keep_alive}; mode=interval"
    )
    # An idle stream's renewal; spread, since Pushpin renews together the streams whose next
    # links share a path and a timeout.
    timeout = random.randint(3 * LEASE_SECONDS // 4, 5 * LEASE_SECONDS // 4)
    response.headers["Grip-Link"] = f"<{next_link}>; rel=next; timeout={timeout}"
    return response


def _mac(body: bytes) -> str:
    key = services().signer.derived_secret(LEASE_PURPOSE)  # the same on every API process
    digest = hmac.new(key, body, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode()
