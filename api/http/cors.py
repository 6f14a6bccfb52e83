"""CORS for front-ends on other origins (`CORS_ORIGINS`, default any): the headers of every
answer and of a preflight's.

Tokens are bearer headers, never cookies, so no answer allows credentials. Every answer passes
here, so the headers of the usual case (any origin) are computed once per server; flask-cors,
which this replaced, spent about a twentieth of an action's work matching them per request.
"""

from __future__ import annotations

from typing import Any

ALLOWED_HEADERS = (
    "Authorization", "Content-Type", "Idempotency-Key", "If-None-Match", "Last-Event-ID",
)  # fmt: skip
EXPOSED_HEADERS = ("ETag", "Location", "Retry-After", "X-Request-Id")
METHODS = ("GET", "OPTIONS", "POST")
PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight answer

Header = tuple[str, str]
_ALLOWED_LOWER = frozenset(name.lower() for name in ALLOWED_HEADERS)
_PREFLIGHT: list[Header] = [
    ("Access-Control-Allow-Methods", ", ".join(METHODS)),
    ("Access-Control-Max-Age", str(PREFLIGHT_MAX_AGE)),
]


class CorsPolicy:
    """Which origins may call, and what each answer tells their browsers."""

    def __init__(self, origins: str) -> None:
        self.any_origin = origins.strip() == "*"
        # Schemes and hosts are case-insensitive (RFC 3986); a browser sends them in lowercase.
        self._origins = frozenset(o.strip().lower() for o in origins.split(",") if o.strip())
        self._any: list[Header] = self._allowing("*")

    def headers(self, environ: dict[str, Any]) -> list[Header]:
        """The CORS headers of the answer to this request: none for an origin not allowed.
        When only some origins are allowed, the answer varies by `Origin` (the caller adds
        that to `Vary`)."""
        if self.any_origin:
            allowed = self._any
        else:
            origin = environ.get("HTTP_ORIGIN", "")
            if origin.lower() not in self._origins:
                return []
            allowed = self._allowing(origin)
        if environ.get("REQUEST_METHOD") == "OPTIONS":
            return allowed + _preflight(environ)
        return allowed

    @staticmethod
    def _allowing(origin: str) -> list[Header]:
        return [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Expose-Headers", ", ".join(EXPOSED_HEADERS)),
        ]


def _preflight(environ: dict[str, Any]) -> list[Header]:
    """A preflight's answer for a method we serve: the methods, how long to keep the answer,
    and which of the headers the page asked for it may send."""
    method = environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD", "").strip().upper()
    if method not in METHODS:
        return []
    asked = environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS", "").split(",")
    names = sorted(name.strip() for name in asked if name.strip().lower() in _ALLOWED_LOWER)
    allowed = [("Access-Control-Allow-Headers", ", ".join(names))] if names else []
    return _PREFLIGHT + allowed
