"""Rate limits (flask-limiter, counted in the Redis the workers already use), per client address
and per seat token, for four kinds of request: creating games (bot-only tables have a quota of
their own), acting, reading, and open streams (api/stream_slots.py). Over a limit: 429
`rate-limited` with `Retry-After`. Every limit is a setting; RATE_LIMITS=off turns them off.

Should Redis be unreachable, each process counts in its own memory meanwhile: a Redis outage
degrades the limits, it never fails a request.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable

from flask import Flask, current_app, request
from flask_limiter import Limiter

from api.services import services
from events.settings import Settings

# Routes are decorated at import time; the app's settings give the values at request time.
limiter = Limiter(key_func=lambda: client_address())


def install_limits(app: Flask, settings: Settings) -> None:
    app.config.update(
        RATELIMIT_ENABLED=settings.rate_limits.strip().lower() != "off",
        RATELIMIT_STORAGE_URI=settings.redis_url or "memory://",
        RATELIMIT_STORAGE_OPTIONS={"socket_timeout": 1, "socket_connect_timeout": 1},
        RATELIMIT_KEY_PREFIX=f"{settings.queue_name}-limits",
        RATELIMIT_STRATEGY="fixed-window",
        RATELIMIT_HEADERS_ENABLED=False,  # our 429 sets Retry-After; other answers keep theirs
        RATELIMIT_SWALLOW_ERRORS=True,
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
    )
    limiter.init_app(app)


def client_address() -> str:
    return request.remote_addr or "unknown"


def token_key() -> str:
    """A hash of the request's token, never the token itself (Redis keys are not secret)."""
    token = request.headers.get("Authorization", "").partition(" ")[2].strip()
    token = token or request.args.get("access_token", "") or request.args.get("ticket", "")
    return "token-" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _has_token() -> bool:
    return "Authorization" in request.headers or "access_token" in request.args


def _setting(name: str) -> Callable[[], str]:
    return lambda: getattr(services().settings, name)


def limited(kind: str) -> Callable:
    """`kind` ("actions", "reads") limited per client address and, with a token, per token."""

    def decorate(view: Callable) -> Callable:
        per_token = limiter.limit(
            _setting(f"rate_limit_{kind}"),
            key_func=token_key,
            scope=f"{kind}-token",
            exempt_when=lambda: not _has_token(),
        )
        per_address = limiter.limit(
            _setting(f"rate_limit_{kind}_per_address"),
            key_func=client_address,
            scope=f"{kind}-address",
        )
        return per_token(per_address(view))

    return decorate


def _bot_only_table() -> bool:
    body = request.get_json(silent=True)
    seats = body.get("seats") if isinstance(body, dict) else None
    if not isinstance(seats, list) or not seats:
        return False
    return all(isinstance(s, dict) and s.get("kind") == "bot" for s in seats)


def _created(response) -> bool:
    return response.status_code == 201  # refused bodies cost no quota


def limited_creation(view: Callable) -> Callable:
    """Games created per client address; tables of bots alone, which only cost worker time,
    have a smaller quota of their own."""
    every = limiter.limit(
        _setting("rate_limit_create"),
        key_func=client_address,
        scope="create",
        deduct_when=_created,
    )
    bots = limiter.limit(
        _setting("rate_limit_create_bots"),
        key_func=client_address,
        scope="create-bots",
        exempt_when=lambda: not _bot_only_table(),
        deduct_when=_created,
    )
    return every(bots(view))


def retry_after_seconds() -> int:
    """Seconds until the limit this request broke lets it through again."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return 1
    window = limiter.current_limit
    if window is None:
        return 1
    return max(1, math.ceil(window.reset_at - time.time()))
