"""What the games routes share."""

from __future__ import annotations

from flask import jsonify

from events.handler import Outcome


def reply(outcome: Outcome, headers: dict | None = None):
    """The handler's response (the first one again, for an idempotent retry)."""
    status, body = outcome.response
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers or {})
    return response
