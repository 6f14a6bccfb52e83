"""The matchmaking queue as players use it: join (one queue per player), see where one stands,
leave. The matcher (matcher.py) takes players out of it by seating them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from domain.games import get_game_type
from domain.matchmaking.asking import table_sizes
from domain.matchmaking.window import window
from events.errors import ApplicationError
from events.matchmaking.entries import QueueEntry, QueueMatch
from events.matchmaking.ratings import Ratings, Skill, player_skill
from events.postgres import queue
from events.postgres.connections import Connection, Pool


class AlreadyQueued(ApplicationError):
    """The player waits in a queue already (one at a time: leave it first)."""

    code = "already-queued"


class NotQueued(ApplicationError):
    code = "not-found"


class AlreadyMatched(ApplicationError):
    """The player's queue came to a table before it could leave: it holds a seat there."""

    code = "already-matched"

    def __init__(self, match: QueueMatch) -> None:
        super().__init__(
            f"the player was seated before it left the queue: seat {match.seat} of game"
            f" {match.game_id} (leave that seat to give it up)"
        )
        self.match = match


@dataclass(frozen=True, slots=True)
class QueueRequest:
    game_type: str
    sizes: Sequence[int] | None  # None: every size the game is played at
    rated: bool = True
    bots_after_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands: waiting (`entry`, with its skill and rating window now), or seated
    by its last queue (`match`)."""

    entry: QueueEntry | None = None
    skill: Skill | None = None
    match: QueueMatch | None = None

    @property
    def window(self) -> tuple[float, float] | None:
        """The ratings the player accepts at its table now, while it waits."""
        if self.entry is None or self.skill is None:
            return None
        return window(self.skill.rating, self.entry.waited)


class Queue:
    def __init__(self, pool: Pool, ratings: Ratings) -> None:
        self._pool = pool
        self._ratings = ratings

    def join(self, player_id: UUID, request: QueueRequest) -> Standing:
        """The player waits from now (AlreadyQueued if it waits already; a size its game is
        not played at is a validation error, and nothing is joined)."""
        sizes = table_sizes(get_game_type(request.game_type), request.sizes)
        with self._pool.connection() as conn:  # one statement: its own transaction
            joined = queue.join(conn, player_id, request.game_type, sizes, request.rated,
                                request.bots_after_seconds)  # fmt: skip
        if joined is None:
            raise AlreadyQueued("the player waits in a queue already: leave it first")
        entry, stored = joined  # the rating read by the join's own statement
        return Standing(entry, player_skill(stored))

    def standing(self, player_id: UUID) -> Standing:
        """Waiting, or seated by its last queue; NotQueued if neither."""
        with self._pool.connection() as conn:
            entry = queue.entry(conn, player_id)
            if entry is not None:
                return Standing(entry, self._skill(conn, entry))
            match = queue.last_match(conn, player_id)
        if match is None:
            raise NotQueued("the player is in no queue")
        return Standing(match=match)

    def leave(self, player_id: UUID) -> None:
        """Out of the queue: no matcher seats the player after this. AlreadyMatched if a
        matcher seated it first; NotQueued if it was in no queue."""
        with self._pool.connection() as conn:  # one statement: its own transaction
            left = queue.leave(conn, player_id)
            if left:
                return
            match = queue.last_match(conn, player_id)
        if match is None:
            raise NotQueued("the player is in no queue")
        raise AlreadyMatched(match)

    def _skill(self, conn: Connection, entry: QueueEntry) -> Skill:
        return self._ratings.of_players(conn, entry.game_type, [entry.player_id])[entry.player_id]
