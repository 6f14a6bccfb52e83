"""Every problem+json answer as an exception: ProblemError, or its subclass for the problem's
stable `code` (the codes openapi.yaml's Problem lists; tests/clients check the two agree)."""

from __future__ import annotations

from typing import Any


class CardroomError(Exception):
    """Anything this client raises of its own: a problem, or a server that could not be reached
    within the retries."""


class ProblemError(CardroomError):
    """An RFC 9457 problem the server answered with."""

    code = ""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body
        self.type: str = str(body.get("type", "about:blank"))
        self.title: str = str(body.get("title", ""))
        self.detail: str = str(body.get("detail", ""))
        super().__init__(f"{status} {body.get('code', '')}: {self.detail or self.title}")

    @staticmethod
    def of(status: int, body: dict[str, Any]) -> ProblemError:
        """The exception for this answer: the subclass of its `code`, else ProblemError."""
        return BY_CODE.get(str(body.get("code", "")), ProblemError)(status, body)


class ServerUnreachable(CardroomError):
    """The connection failed (or dropped) on every try."""


class ValidationError(ProblemError):
    code = "validation-error"


class Unauthorized(ProblemError):
    code = "unauthorized"


class Forbidden(ProblemError):
    code = "forbidden"


class NotFound(ProblemError):
    code = "not-found"


class IllegalAction(ProblemError):
    code = "illegal-action"


class VersionConflict(ProblemError):
    code = "version-conflict"


class SeatTaken(ProblemError):
    code = "seat-taken"


class GameFinished(ProblemError):
    code = "game-finished"


class GameNotStarted(ProblemError):
    code = "game-not-started"


class RequestInProgress(ProblemError):
    code = "request-in-progress"


class IdempotencyKeyReused(ProblemError):
    code = "idempotency-key-reused"


class LimitReached(ProblemError):
    code = "limit-reached"


class WebhookDisabled(ProblemError):
    code = "webhook-disabled"


class AlreadyQueued(ProblemError):
    code = "already-queued"


class AlreadyMatched(ProblemError):
    code = "already-matched"


class RateLimited(ProblemError):
    code = "rate-limited"


class MethodNotAllowed(ProblemError):
    code = "method-not-allowed"


class NotAcceptable(ProblemError):
    code = "not-acceptable"


class RequestTimeout(ProblemError):
    code = "request-timeout"


class PayloadTooLarge(ProblemError):
    code = "payload-too-large"


class UnsupportedMediaType(ProblemError):
    code = "unsupported-media-type"


class UriTooLong(ProblemError):
    code = "uri-too-long"


class HeaderFieldsTooLarge(ProblemError):
    code = "header-fields-too-large"


class NotImplementedByServer(ProblemError):
    code = "not-implemented"


class ExpectationFailed(ProblemError):
    code = "expectation-failed"


class NotReady(ProblemError):
    code = "not-ready"


class Unavailable(ProblemError):
    code = "unavailable"


class HttpError(ProblemError):
    code = "http-error"


class InternalError(ProblemError):
    code = "internal-error"


BY_CODE: dict[str, type[ProblemError]] = {
    kind.code: kind for kind in ProblemError.__subclasses__() if kind.code
}
