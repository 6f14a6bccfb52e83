"""Who a request counts against, read off the request alone: its client address, its token's
bucket key, and which credential it carries. api/http/limits.py (the views' limits),
api/http/limit_buckets.py (the limits counted by hand) and api/http/problems.py (the 429's
Retry-After) all read these, so they sit below all three and import none of them.

Two questions that differ on purpose:
- `bears_reusable_token`: a seat token or a player's key (`Authorization`, `?access_token=`),
  which comes back on every request, so a bucket of its own can count it;
- `bears_credential`: any credential, a single-use stream ticket (`?ticket=`) too. A ticket is
  new on every stream it opens: a bucket per ticket would be a fresh bucket every time, never
  over its limit. So a ticket's request counts against its client address, like a request with
  no credential, and a ticket that resolves to nothing counts, like any credential, among its
  address's unresolved credentials (api/http/limit_buckets.py).
"""

from __future__ import annotations

import hashlib
import math
import time

from flask import current_app, request
from flask_limiter import Limiter

LIMITER = "cardroom_limiter"  # the app's limiter, in app.extensions


def client_address() -> str:
    return request.remote_addr or "unknown"


def creator_key() -> str:
    """Who creates a table, as the workers' fair shares know them: a hash of the client's
    address (the address itself is kept nowhere)."""
    digest = hashlib.sha256(client_address().encode("utf-8", "surrogatepass")).hexdigest()
    return f"address-{digest[:16]}"


def token_key() -> str:
    """A hash of the request's token, never the token itself (Redis keys are not secret)."""
    token = request.headers.get("Authorization", "").partition(" ")[2].strip()
    token = token or request.args.get("access_token", "") or request.args.get("ticket", "")
    return "token-" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def bears_reusable_token() -> bool:
    """Whether the request carries a token that a per-token bucket can count (no ticket)."""
    return "Authorization" in request.headers or "access_token" in request.args


def bears_credential() -> bool:
    """Whether the request carries any credential: a token, or a single-use stream ticket."""
    return bears_reusable_token() or "ticket" in request.args


def retry_after_seconds() -> int:
    """Seconds until the limit this request broke lets it through again."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return 1
    limiter: Limiter = current_app.extensions[LIMITER]
    window = limiter.current_limit
    if window is None:
        return 1
    return max(1, math.ceil(window.reset_at - time.time()))
