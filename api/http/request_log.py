"""One log line per request, with a request id; and the log context of every line logged while
serving it (events/operations/logs.py): the request id, the game's id and, once known, its version.

Never a token, a body or a query string: those may hold secrets (a seat token as
?access_token=, cards in a body). The game id is taken from the path only once it is a UUID.

Every request passes here twice, so each hook reads the WSGI environ and the response's header
list directly rather than through request and response helpers.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
import uuid

from flask import Flask, Response, request

from events.operations import logs

log = logging.getLogger("cardroom.requests")
SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# Where a request keeps its id and start, in its WSGI environ (read by api/resources/metrics.py
# too).
REQUEST_ID = "cardroom.request_id"
STARTED = "cardroom.started"


def install_request_log(app: Flask) -> None:
    def _start() -> None:
        environ = request.environ
        given = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = given if SAFE_ID.match(given) else secrets.token_hex(16)
        environ[REQUEST_ID] = request_id
        environ[STARTED] = time.perf_counter()
        logs.start(request_id=request_id, game_id=_game_id())

    # First of all hooks, so whatever the others log carries the request id.
    app.before_request_funcs.setdefault(None, []).insert(0, _start)

    @app.after_request
    def _log(response: Response) -> Response:
        environ = request.environ
        request_id = environ.get(REQUEST_ID) or secrets.token_hex(16)
        started = environ.get(STARTED)
        elapsed_ms = 0.0 if started is None else (time.perf_counter() - started) * 1000
        response.headers.add("X-Request-Id", request_id)  # no one else sets it
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
    def _forget(_error: BaseException | None) -> None:
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
