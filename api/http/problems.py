"""Every error leaves as application/problem+json (RFC 9457) with a stable `code`."""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import Flask, Response, json
from flask_limiter.errors import RateLimitExceeded
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from api.http.limit_keys import retry_after_seconds
from domain.kit.decider import DomainError
from events.bootstrap import STORAGE_UNAVAILABLE
from events.errors import ActionRefused, ApplicationError, GameNotFound, VersionConflict

log = logging.getLogger("cardroom.api")

STATUS_OF_CODE = {
    "validation-error": 400,
    "unauthorized": 401,
    "not-found": 404,
    "illegal-action": 409,
    "version-conflict": 409,
    "seat-taken": 409,
    "game-finished": 409,
    "game-not-started": 409,
    "request-in-progress": 409,
    "limit-reached": 409,
    "webhook-disabled": 409,
    "already-queued": 409,
    "already-matched": 409,
    "idempotency-key-reused": 422,
    "forbidden": 403,
    "request-timeout": 408,
    "payload-too-large": 413,
    "unsupported-media-type": 415,
    "rate-limited": 429,
    "unavailable": 503,
}

CODE_OF_HTTP_STATUS = {
    400: "validation-error",
    401: "unauthorized",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    413: "payload-too-large",
    415: "unsupported-media-type",
}


class Problem(Exception):
    """An error raised by a view, rendered by the handler below."""

    def __init__(self, code: str, detail: str, status: int | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status or STATUS_OF_CODE[code]
        self.extra = extra


def problem_response(status: int, code: str, detail: str, **extra: Any) -> Response:
    body = {
        "type": f"https://cardroom.dev/problems/{code}",
        "title": code.replace("-", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(error: Problem) -> Response:
        response = problem_response(error.status, error.code, error.detail, **error.extra)
        if "retry_after" in error.extra:
            response.headers["Retry-After"] = str(error.extra["retry_after"])
        return response

    @app.errorhandler(ValidationError)
    def _validation(error: ValidationError) -> Response:
        return problem_response(
            400,
            "validation-error",
            "the request does not match the schema",
            errors=_errors(error.messages),
        )

    @app.errorhandler(DomainError)
    def _domain(error: DomainError) -> Response:
        return problem_response(STATUS_OF_CODE[error.code], error.code, error.message)

    @app.errorhandler(GameNotFound)
    def _missing(error: GameNotFound) -> Response:
        return problem_response(404, "not-found", "no such game")

    @app.errorhandler(ApplicationError)
    def _application(error: ApplicationError) -> Response:
        extra: dict[str, Any] = {}
        if isinstance(error, VersionConflict):
            extra["current_version"] = error.current_version
        if isinstance(error, ActionRefused):
            extra["legal_actions"] = error.legal_actions
        return problem_response(STATUS_OF_CODE[error.code], error.code, error.message, **extra)

    @app.errorhandler(RateLimitExceeded)
    def _rate_limited(error: RateLimitExceeded) -> Response:
        wait = retry_after_seconds()
        detail = f"over the limit of {error.description}; retry in {wait} s"
        response = problem_response(429, "rate-limited", detail, retry_after=wait)
        response.headers["Retry-After"] = str(wait)
        return response

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        status = error.code or 500
        code = CODE_OF_HTTP_STATUS.get(status, "http-error")
        response = problem_response(status, code, error.description or code)
        # Keep what the exception says about itself, e.g. the `Allow` of a 405 (RFC 9110).
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    def _unavailable(error: Exception) -> Response:
        # The database or Redis is unreachable, or every connection is busy: nothing was
        # committed, so the client may simply retry.
        log.warning("a backing service is unavailable: %s", type(error).__name__)
        response = problem_response(503, "unavailable", "a backing service is unavailable; retry")
        response.headers["Retry-After"] = "1"
        return response

    for unavailable in (*STORAGE_UNAVAILABLE, redis.RedisError):
        app.register_error_handler(unavailable, _unavailable)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        log.exception("unhandled error")
        return problem_response(500, "internal-error", "an unexpected error occurred")


def _errors(messages: list[Any] | dict[str, Any]) -> dict[str, Any]:
    """marshmallow messages as a dict of field -> messages (a list becomes {"_schema": ...})."""
    return messages if isinstance(messages, dict) else {"_schema": messages}
