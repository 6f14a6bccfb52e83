"""What browsers need and what they must not get: CORS (flask-cors) for front-ends on other
origins, bodies only as application/json (a form or text/plain POST is what a foreign page can
send without a preflight), and headers that keep private responses out of caches and sniffers.

Tokens are bearer headers, never cookies, so any origin may call the API by default
(`CORS_ORIGINS`): a page cannot act for a seat unless its user gave it the token.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS

from api.problems import Problem

ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "If-None-Match"]
ALLOWED_HEADERS += ["Last-Event-ID"]
EXPOSED_HEADERS = ["ETag", "Retry-After", "Location", "X-Request-Id"]
BODY_METHODS = {"POST", "PUT", "PATCH"}
JSON = "application/json"
PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight answer


def install_browser_rules(app: Flask, origins: str) -> None:
    anyone = origins.strip() == "*"
    CORS(
        app,
        origins="*" if anyone else [o.strip() for o in origins.split(",") if o.strip()],
        send_wildcard=anyone,  # `*` rather than the echoed origin: one answer for every page
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        methods=["GET", "POST", "OPTIONS"],
        max_age=PREFLIGHT_MAX_AGE,
        supports_credentials=False,
    )
    app.before_request(_json_bodies_only)
    app.after_request(_protective_headers)


def _json_bodies_only() -> None:
    """415 for a body of another type; a POST with no body at all needs no type."""
    if request.method not in BODY_METHODS:
        return
    if request.mimetype == JSON:
        return
    if not request.mimetype and not request.content_length and not _has_chunked_body():
        return
    raise Problem(
        "unsupported-media-type",
        f"send the body as {JSON} (got {request.mimetype or 'no Content-Type'})",
    )


def _has_chunked_body() -> bool:
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def _protective_headers(response: Response) -> Response:
    response.headers["X-Content-Type-Options"] = "nosniff"
    if _private(response):
        # Private cards or tokens: never stored by a browser or a proxy.
        response.headers["Cache-Control"] = "no-store"
    elif "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "no-cache"  # revalidate (ETag) before reuse
    if request.path.startswith("/games/"):
        response.vary.add("Authorization")  # what a game route shows depends on the caller
    return response


def _private(response: Response) -> bool:
    credentials = "Authorization" in request.headers or any(
        name in request.args for name in ("access_token", "ticket")
    )
    return credentials or request.method in BODY_METHODS
