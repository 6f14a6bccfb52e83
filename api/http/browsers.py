"""What browsers need and what they must not get: CORS for front-ends on other origins
(api/http/cors.py), bodies only as application/json (a form or text/plain POST is what a foreign
page can send without a preflight), and headers that keep private responses out of caches and
sniffers.

Tokens are bearer headers, never cookies, so any origin may call the API by default
(`CORS_ORIGINS`): a page cannot act for a seat unless its user gave it the token.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from werkzeug.datastructures import Headers

from api.http.cors import CorsPolicy
from api.http.problems import Problem

BODY_METHODS = {"POST", "PUT", "PATCH"}
JSON = "application/json"
CREDENTIALS = ("access_token", "ticket")  # query parameters that carry a token


def install_browser_rules(app: Flask, origins: str) -> None:
    cors = CorsPolicy(origins)

    def _browser_headers(response: Response) -> Response:
        environ = request.environ
        headers = response.headers
        headers.add("X-Content-Type-Options", "nosniff")
        if _private(environ):
            # Private cards or tokens: never stored by a browser or a proxy.
            headers["Cache-Control"] = "no-store"
        elif "Cache-Control" not in headers:
            headers.add("Cache-Control", "no-cache")  # revalidate (ETag) before reuse
        if request.path.startswith("/games/"):
            _vary(headers, "Authorization")  # what a game route shows depends on the caller
        headers.extend(cors.headers(environ))
        if not cors.any_origin:
            _vary(headers, "Origin")
        return response

    app.before_request(_json_bodies_only)
    app.after_request(_browser_headers)


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


def _private(environ: dict[str, Any]) -> bool:
    if "HTTP_AUTHORIZATION" in environ or environ["REQUEST_METHOD"] in BODY_METHODS:
        return True
    return bool(environ.get("QUERY_STRING")) and any(name in request.args for name in CREDENTIALS)


def _vary(headers: Headers, name: str) -> None:
    """Adds `name` to the answer's Vary header, once."""
    vary = headers.get("Vary")
    if vary is None:
        headers.add("Vary", name)
    elif name.lower() not in {part.strip().lower() for part in vary.split(",")}:
        headers["Vary"] = f"{vary}, {name}"
