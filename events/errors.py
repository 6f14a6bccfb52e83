"""The application's errors: a command or a read that cannot be served, each with the stable
code the API answers with. The rules' own refusals are `domain.kit.decider.DomainError`s."""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID


class ApplicationError(Exception):
    code: ClassVar[str]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(ApplicationError, LookupError):
    code = "not-found"

    def __init__(self, game_id: UUID | str) -> None:
        super().__init__(f"no game {game_id}")


class GameExists(ApplicationError):
    code = "validation-error"

    def __init__(self, game_id: UUID | str) -> None:
        super().__init__(f"game {game_id} exists already")


class VersionConflict(ApplicationError):
    """Another writer appended first, or the client's expected version is not the game's."""

    code = "version-conflict"

    def __init__(self, game_id: UUID, expected_version: int, current_version: int) -> None:
        super().__init__(f"the game is at version {current_version}")
        self.game_id = game_id
        self.expected_version = expected_version
        self.current_version = current_version


class RequestInProgress(ApplicationError):
    code = "request-in-progress"


class IdempotencyKeyReused(ApplicationError):
    code = "idempotency-key-reused"


class ActionRefused(ApplicationError):
    """The rules refused a seat's action; `legal_actions` is what the seat may do instead."""

    code = "illegal-action"

    def __init__(self, message: str, legal_actions: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.legal_actions = legal_actions


class Forbidden(ApplicationError):
    """The caller is known, but may not do this (a wrong or missing invite)."""

    code = "forbidden"


INVALID_TOKEN = "this token is not valid for this game"


class Unauthorized(ApplicationError):
    """The caller's token acts for no seat of this game."""

    code = "unauthorized"

    def __init__(self, message: str = INVALID_TOKEN) -> None:
        super().__init__(message)


class QueueMoved(ApplicationError):
    """A table the matcher formed cannot be seated: one of its players left the queue, or
    another matcher is seating one. Nothing was created; the others still wait."""

    code = "queue-moved"
