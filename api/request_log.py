"""One log line per request, with a request id. Never a token, a body or a query string:
those may hold secrets (a seat token as ?access_token=, cards in a body)."""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, g, request

log = logging.getLogger("cardroom.requests")
SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def install_request_log(app: Flask) -> None:
    @app.before_request
    def _start() -> None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if SAFE_ID.match(given) else uuid.uuid4().hex
        g.started = time.perf_counter()

    @app.after_request
    def _log(response):
        request_id = getattr(g, "request_id", None) or uuid.uuid4().hex
        elapsed_ms = (time.perf_counter() - getattr(g, "started", time.perf_counter())) * 1000
        response.headers["X-Request-Id"] = request_id
        log.info(
            "%s %s %s %.1fms id=%s",
            request.method,
            _route(),
            response.status_code,
            elapsed_ms,
            request_id,
        )
        return response


def _route() -> str:
    """The matched route pattern (no ids, no query), or a fixed word for unmatched paths."""
    rule = request.url_rule
    return rule.rule if rule is not None else "<unmatched>"
