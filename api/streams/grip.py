"""Streams that Pushpin holds (GRIP): the instructions that hand a stream to Pushpin once the
app's handshake is done, and the next link that Pushpin comes back to for what a stream missed.

A request came through Pushpin when it carries a `Grip-Sig` Pushpin signed (api/http/pushpin.py).
The app answers it as it answers any
client (the backlog after the resume point), plus instructions that Pushpin strips: hold the
connection open (`Grip-Hold: stream`) on these channels, send `: keep-alive` every heartbeat,
and come back to this next link (`Grip-Link`) when a published item does not follow the last
one a stream got (its channel's `prev-id`), or after a few idle minutes.

Where a stream stands and whose it is travel as its channels' positions, which Pushpin sends
back on the next link (`Grip-Last`): the viewer's channel at the last version sent, and the
credential's channel. So the next link itself names only the game and the viewer, with a lease
the server signed (HMAC under a secret derived from the signing key): the same for every stream
of that viewer, which lets Pushpin batch their updates and share requests that are alike (same
path, same positions), and never shares one between different viewers or credentials.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import time
from typing import Any

from flask import Response, request

from api.http.pushpin import through_pushpin
from api.services import services

IDLE_SECONDS = 300  # Pushpin comes back for an idle stream after this long (±25 %)
# A stream Pushpin holds counts (api/streams/slots.py) this long after its handshake: Pushpin
# does not tell the app when a client leaves.
LEASE_LIFETIME = 300
LEASE_WINDOW = 3600  # leases signed within one window are the same: their expiry is its end
LEASE_PURPOSE = "cardroom/stream-leases"  # events.audit.signing.HeadSigner.derived_secret


def sign(lease: dict[str, Any]) -> str:
    expires = (int(time.time()) // LEASE_WINDOW + 2) * LEASE_WINDOW
    body = base64.urlsafe_b64encode(json.dumps({**lease, "expires": expires}).encode())
    return f"{body.decode()}.{_mac(body)}"


def verified(token: str) -> dict[str, Any] | None:
    """The lease a token carries, if it came through Pushpin, this server signed it and it has
    not expired."""
    if not through_pushpin():
        return None
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
        for entry in header.split(","):
            name, _, value = entry.partition(";")
            found[name.strip()] = value.strip().removeprefix("last-id=")
    return found


def hold(
    response: Response, channels: list[tuple[str, int | None]], next_link: str, heartbeat: float
) -> Response:
    """`channels`: each with its position (its prev-id), or None."""
    for name, prev in channels:
        response.headers.add("Grip-Channel", name if prev is None else f"{name}; prev-id={prev}")
    response.headers["Grip-Hold"] = "stream"
    keep_alive = max(1, round(heartbeat))
    response.headers["Grip-Keep-Alive"] = (
        f": keep-alive\\n\\n; format=cstring; timeout={keep_alive}; mode=interval"
    )
    # Spread: Pushpin comes back together for the streams whose links and timeouts are alike.
    idle = random.randint(3 * IDLE_SECONDS // 4, 5 * IDLE_SECONDS // 4)
    response.headers["Grip-Link"] = f"<{next_link}>; rel=next; timeout={idle}"
    return response


def _mac(body: bytes) -> str:
    key = services().signer.derived_secret(LEASE_PURPOSE)  # the same on every API process
    digest = hmac.new(key, body, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode()
