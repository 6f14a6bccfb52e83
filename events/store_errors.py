"""Errors the event store raises; the API maps them to problem+json (409, 409, 404)."""

from __future__ import annotations

from uuid import UUID


class VersionConflict(Exception):
    """Another writer appended first: reload and decide again (or answer 409)."""

    def __init__(self, game_id: UUID, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"game {game_id}: expected version {expected_version}, current is {current_version}"
        )
        self.game_id = game_id
        self.expected_version = expected_version
        self.current_version = current_version


class StreamExists(Exception):
    pass


class StreamNotFound(LookupError):
    pass
