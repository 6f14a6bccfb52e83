"""One log line per request, with a request id; and the log context of every line logged while
serving it (events/logs.py): the request id, the game's id and, once known, its version.

Never a token, a body or a query string: those may hold secrets (a seat token as
?access_token=, cards in a body). The game id is taken from the path only once it is a UUID.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, g, request

from events import logs

log = logging.getLogger("cardroom.requests")
SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
ETAG_VERSION = re.compile(r'^"([0-9]{1,10})"$')


def install_request_log(app: Flask) -> None:
    def _start() -> None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if SAFE_ID.match(given) else uuid.uuid4().hex
        g.started = time.perf_counter()
        logs.clear()
        logs.bind(request_id=g.request_id, game_id=_game_id())

    # First of all hooks, so whatever the others log carries the request id.
    app.before_request_funcs.setdefault(None, []).insert(0, _start)

    @app.after_request
    def _log(response):
        request_id = getattr(g, "request_id", None) or uuid.uuid4().hex
        elapsed_ms = (time.perf_counter() - getattr(g, "started", time.perf_counter())) * 1000
        response.headers["X-Request-Id"] = request_id
        etag = ETAG_VERSION.match(response.headers.get("ETag", ""))
        if etag:  # a game read: the version it showed
            logs.bind(version=int(etag.group(1)))
        log.info(
            "%s %s %s %.1fms id=%s",
            request.method,
            _route(),
            response.status_code,
            elapsed_ms,
            request_id,
        )
        return response

    @app.teardown_request
    def _forget(_error) -> None:
        logs.clear()


def _route() -> str:
    """The matched route pattern (no ids, no query), or a fixed word for unmatched paths."""
    rule = request.url_rule
    return rule.rule if rule is not None else "<unmatched>"


def _game_id() -> str | None:
    raw = (request.view_args or {}).get("game_id")
    if not isinstance(raw, str):
        return None
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        return None
