"""The unit of work: one transaction in which a command locks its game, reads it and writes
everything it causes (events, outbox work, seat tokens, the idempotency record). All of it
commits together, or none of it does.

`UnitOfWork` is the port the command service (events/commands.py) is written against; Postgres
implements it for the service (events/postgres/unit_of_work.py) and a dictionary for fast tests
(events/memory.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol, Self
from uuid import UUID

from domain.kit.decider import Event
from domain.tables.table import Table
from events.idempotent_requests import Claim
from events.matchmaking.entries import QueueEntry
from events.outbox import Work
from events.pending_append import PendingAppend
from events.records import StoredEvent, StreamHead


class UnitOfWork(Protocol):
    """Used as `with units() as uow:`; leaving the block normally commits."""

    def __enter__(self) -> Self: ...

    def __exit__(self, *raised: Any) -> None:
        """Commits when the block ended normally, rolls back when it raised."""
        ...

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        """Claims an Idempotency-Key (by its keyed hash) for this transaction."""
        ...

    def complete(self, scope: str, key_id: str, record: dict[str, Any]) -> None:
        """Records what the claimed request did, to answer its retries."""
        ...

    def create_stream(self, game_id: UUID, game_type: str, creator: str = "") -> StreamHead:
        """A new, empty stream, locked (GameExists if the id is taken); `creator` names who
        created it (the workers are shared fairly between creators)."""
        ...

    def lock(self, game_id: UUID) -> StreamHead:
        """Locks the game's stream: writers of one game take turns (GameNotFound if none)."""
        ...

    def lock_as(self, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
        """Locks the game's stream (as `lock`) and finds the seat `token` acts for (None: none)."""
        ...

    def load(self, game_id: UUID, head: StreamHead) -> Table:
        """The table at the locked head's version."""
        ...

    def append(
        self,
        game_id: UUID,
        head: StreamHead,
        events: Sequence[Event],
        table: Table,
        acted: int | None = None,
    ) -> PendingAppend:
        """Appends after `head`; `table` is the state the events lead to, `acted` the seat
        whose own move they are (a client's action), if any. The unit may send the append
        later (with its next statement, or its COMMIT): the events as stored are read from
        what this returns once the unit has ended."""
        ...

    def add_work(
        self, game_id: UUID, version: int, work: Sequence[Work], urgent: bool = False
    ) -> None:
        """Work for the workers once this commits (a bot's turn, round scoring); `urgent`
        when a human is waiting for it."""
        ...

    def work_done(self, game_id: UUID, version: int, work: Work) -> None: ...

    def save_tokens(self, game_id: UUID, tokens: Mapping[int, str]) -> None:
        """Each seat's token from now on (the one it had, if any, stops working)."""
        ...

    def revoke_token(self, game_id: UUID, seat: int) -> None: ...

    def seat_players(
        self, game_id: UUID, seated: Mapping[int, str], unseated: Sequence[int]
    ) -> None:
        """The seats players took (seat -> player id) and those they lost, as the events just
        appended say."""
        ...

    def tell_players(
        self, game_id: UUID, version: int, notices: Sequence[tuple[str, str, int]]
    ) -> None:
        """Notices (player id, kind, seat) of the commit, each numbered in its player's order,
        and their streams woken once this commits."""
        ...

    def wake_streams(self, game_id: UUID) -> None:
        """Wakes the game's live streams once this commits, with no event: its seat tokens
        changed, and streams opened with one no longer valid must end."""
        ...

    def save_invites(self, game_id: UUID, invites: Mapping[int, str]) -> None: ...

    def set_timers(
        self, game_id: UUID, waiting: dict[int, int], seconds: int, new: Sequence[StoredEvent]
    ) -> dict[int, datetime]:
        """The turn timers of the game from now on: for each seat waited for, since which
        version (its `recorded_at` is in `new`, the events being appended, or stored) plus
        `seconds`. Returns each waited-for seat's deadline: all the game's timers now."""
        ...

    def deadline(self, game_id: UUID, seat: int, since: int) -> datetime | None:
        """When the seat's turn that began at version `since` runs out; None if it is not
        waited for since then."""
        ...

    def invite_matches(self, game_id: UUID, seat: int, invite: str) -> bool: ...

    def save_seed_commitment(
        self, commitment_id: UUID, server_seed: str, lasts: timedelta
    ) -> datetime:
        """Keeps a server seed under its commitment's id until it expires (returned)."""
        ...

    def take_seed_commitment(self, commitment_id: UUID) -> str | None:
        """The seed of an unused, unexpired commitment, which this uses up; else None."""
        ...

    def take_queue_entries(self, entry_ids: Sequence[int]) -> list[QueueEntry]:
        """Those of the entries still waiting that no other unit is seating, taken out of the
        queue (never waiting for another unit: an entry it holds is skipped)."""
        ...

    def record_matches(self, game_id: UUID, seats: Mapping[int, QueueEntry]) -> None:
        """The table and seat each taken entry's player was seated at (GET /me/queue)."""
        ...
