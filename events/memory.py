"""The unit of work on dictionaries: the same port as Postgres (events/unit_of_work.py), for fast
tests of the command service's policy (what is due, idempotency, conflicts, refusals). One
transaction at a time; leaving a block with an error puts everything back."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Self
from uuid import UUID

from domain.kit.decider import Event
from domain.tables.table import Table
from events.audit.chain import CURRENT_FORMAT, GENESIS
from events.errors import GameExists, GameNotFound, VersionConflict
from events.idempotent_requests import Claim, ClaimKind
from events.matchmaking.entries import QueueEntry
from events.outbox import Work
from events.pending_append import PendingAppend
from events.records import StoredEvent, StreamHead, chained_events, new_events


@dataclass
class MemoryState:
    heads: dict[UUID, StreamHead] = field(default_factory=dict)
    events: dict[UUID, list[StoredEvent]] = field(default_factory=dict)
    tables: dict[UUID, Table] = field(default_factory=dict)
    requests: dict[tuple[str, str], tuple[str, dict[str, Any] | None]] = field(default_factory=dict)
    work: dict[tuple[UUID, int, Work], bool] = field(default_factory=dict)  # -> done
    urgent: dict[tuple[UUID, int, Work], bool] = field(default_factory=dict)
    tokens: dict[tuple[UUID, int], str] = field(default_factory=dict)
    invites: dict[tuple[UUID, int], str] = field(default_factory=dict)
    timers: dict[UUID, dict[int, tuple[int, datetime]]] = field(default_factory=dict)
    seed_commitments: dict[UUID, tuple[str, datetime]] = field(default_factory=dict)
    player_seats: dict[tuple[UUID, int], str] = field(default_factory=dict)
    notices: list[tuple[str, str, UUID, int, int]] = field(default_factory=list)
    queue: dict[int, QueueEntry] = field(default_factory=dict)  # entry id -> entry
    matches: dict[UUID, tuple[UUID, int]] = field(default_factory=dict)  # player -> game, seat


class MemoryStore:
    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.state = MemoryState()
        self.clock = clock
        self.lock = threading.Lock()

    def unit_of_work(self) -> MemoryUnitOfWork:
        return MemoryUnitOfWork(self)

    def pending_work(self, game_id: UUID) -> list[tuple[int, Work]]:
        return [(v, w) for (g, v, w), done in self.state.work.items() if g == game_id and not done]


class MemoryUnitOfWork:
    """An append changes the state at once (the unit's later reads see it), but its events
    count as stored only once the unit has ended well, as on Postgres, where an append may go
    out with the COMMIT: code that read them earlier fails here too."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._appends: list[PendingAppend] = []

    def __enter__(self) -> Self:
        self._store.lock.acquire()
        self._before = copy.copy(self._store.state)
        self.s = self._store.state
        for name in vars(self.s):
            setattr(self.s, name, copy.copy(getattr(self.s, name)))
        return self

    def __exit__(self, *raised: object) -> None:
        try:
            if raised[0] is not None:
                self._store.state = self._before  # rolled back
            for appended in self._appends:
                if raised[0] is None:
                    appended.mark_sent(appended.chained)  # no global positions here: all 0
                else:
                    appended.drop()
        finally:
            self._store.lock.release()

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        found = self.s.requests.get((scope, key_id))
        if found is None:
            self.s.requests[(scope, key_id)] = (request_hash, None)
            return Claim(ClaimKind.NEW)
        if found[0] != request_hash:
            return Claim(ClaimKind.REUSED)
        return Claim(ClaimKind.REPLAY, found[1])

    def complete(self, scope: str, key_id: str, record: dict[str, Any]) -> None:
        request_hash, _ = self.s.requests[(scope, key_id)]
        self.s.requests[(scope, key_id)] = (request_hash, record)

    def create_stream(self, game_id: UUID, game_type: str, creator: str = "") -> StreamHead:
        if game_id in self.s.heads:
            raise GameExists(game_id)
        self.s.heads[game_id] = StreamHead(0, GENESIS, CURRENT_FORMAT)
        self.s.events[game_id] = []
        return self.s.heads[game_id]

    def lock(self, game_id: UUID) -> StreamHead:
        if game_id not in self.s.heads:
            raise GameNotFound(game_id)
        return self.s.heads[game_id]

    def lock_as(self, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
        head = self.lock(game_id)
        held = [seat for (game, seat), t in self.s.tokens.items() if (game, t) == (game_id, token)]
        return head, held[0] if held else None

    def load(self, game_id: UUID, head: StreamHead) -> Table:
        return self.s.tables[game_id]

    def append(
        self,
        game_id: UUID,
        head: StreamHead,
        events: Sequence[Event],
        table: Table,
        acted: int | None = None,
    ) -> PendingAppend:
        if self.s.heads[game_id] != head:
            raise VersionConflict(game_id, head.version, self.s.heads[game_id].version)
        stored = chained_events(game_id, head, new_events(events), self._store.clock())
        self.s.events[game_id] = [*self.s.events[game_id], *stored]
        self.s.heads[game_id] = StreamHead(stored[-1].version, stored[-1].hash, head.chain_format)
        self.s.tables[game_id] = table
        appended = PendingAppend(stored)
        self._appends.append(appended)
        return appended

    def add_work(
        self, game_id: UUID, version: int, work: Sequence[Work], urgent: bool = False
    ) -> None:
        for item in work:
            self.s.urgent[(game_id, version, item)] = urgent
            self.s.work.setdefault((game_id, version, item), False)

    def work_done(self, game_id: UUID, version: int, work: Work) -> None:
        if (game_id, version, work) in self.s.work:
            self.s.work[(game_id, version, work)] = True

    def save_tokens(self, game_id: UUID, tokens: Mapping[int, str]) -> None:
        for seat, token in tokens.items():
            self.s.tokens[(game_id, seat)] = token

    def revoke_token(self, game_id: UUID, seat: int) -> None:
        self.s.tokens.pop((game_id, seat), None)

    def wake_streams(self, game_id: UUID) -> None:
        pass  # nothing listens here

    def seat_players(
        self, game_id: UUID, seated: Mapping[int, str], unseated: Sequence[int]
    ) -> None:
        for seat in unseated:
            self.s.player_seats.pop((game_id, seat), None)
        for seat, player in seated.items():
            self.s.player_seats[(game_id, seat)] = player

    def tell_players(
        self, game_id: UUID, version: int, notices: Sequence[tuple[str, str, int]]
    ) -> None:
        for player, kind, seat in notices:
            self.s.notices.append((player, kind, game_id, version, seat))

    def save_invites(self, game_id: UUID, invites: Mapping[int, str]) -> None:
        for seat, invite in invites.items():
            self.s.invites[(game_id, seat)] = invite

    def set_timers(
        self, game_id: UUID, waiting: dict[int, int], seconds: int, new: Sequence[StoredEvent]
    ) -> dict[int, datetime]:
        moments = {event.version: event.recorded_at for event in self.s.events[game_id]}
        timers = {s: (v, moments[v] + timedelta(seconds=seconds)) for s, v in waiting.items()}
        self.s.timers[game_id] = timers
        return {seat: deadline for seat, (_, deadline) in timers.items()}

    def deadline(self, game_id: UUID, seat: int, since: int) -> datetime | None:
        found = self.s.timers.get(game_id, {}).get(seat)
        return found[1] if found and found[0] == since else None

    def invite_matches(self, game_id: UUID, seat: int, invite: str) -> bool:
        return self.s.invites.get((game_id, seat)) == invite

    def save_seed_commitment(
        self, commitment_id: UUID, server_seed: str, lasts: timedelta
    ) -> datetime:
        expires = self._store.clock() + lasts
        self.s.seed_commitments[commitment_id] = (server_seed, expires)
        return expires

    def take_seed_commitment(self, commitment_id: UUID) -> str | None:
        seed, expires = self.s.seed_commitments.pop(commitment_id, (None, None))
        if expires is None or expires <= self._store.clock():
            return None
        return seed

    def take_queue_entries(self, entry_ids: Sequence[int]) -> list[QueueEntry]:
        return [self.s.queue.pop(i) for i in entry_ids if i in self.s.queue]

    def record_matches(self, game_id: UUID, seats: Mapping[int, QueueEntry]) -> None:
        for seat, entry in seats.items():
            self.s.matches[entry.player_id] = (game_id, seat)
