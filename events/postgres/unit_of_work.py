"""The unit of work on Postgres: one pooled connection, one transaction (READ COMMITTED; the
stream row lock orders the writers of a game)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from datetime import datetime
from typing import Any, Self
from uuid import UUID

import psycopg

from domain.decider import Event
from domain.table import Table
from events.idempotent_requests import Claim
from events.outbox import Work
from events.postgres import idempotency, outbox, seat_tokens, store, turn_timers
from events.postgres.repository import Repository
from events.records import StoredEvent, StreamHead, new_events
from events.signing import HeadSigner


class PostgresUnitOfWork:
    def __init__(self, pool, repository: Repository, signer: HeadSigner | None) -> None:
        self._pool = pool
        self._repository = repository
        self._signer = signer
        self._status: dict[UUID, str] = {}
        self._committed: list[tuple[UUID, int, Table]] = []
        self._work_queued = False

    def __enter__(self) -> Self:
        self._stack = ExitStack()
        self.conn: psycopg.Connection = self._stack.enter_context(self._pool.connection())
        self._stack.enter_context(self.conn.transaction())
        return self

    def __exit__(self, *raised: Any) -> None:
        committing = raised[0] is None
        if committing and self._work_queued:
            outbox.notify_relay(self.conn)
        self._stack.__exit__(*raised)  # commits, or rolls back on an error
        if committing:  # only a committed state may enter the cache
            for game_id, version, table in self._committed:
                self._repository.remember(game_id, version, table)

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        return idempotency.claim(self.conn, scope, key_id, request_hash)

    def complete(self, scope: str, key_id: str, record: dict) -> None:
        idempotency.complete(self.conn, scope, key_id, record)

    def create_stream(self, game_id: UUID, game_type: str) -> StreamHead:
        store.create_stream(self.conn, game_id, game_type)
        self._status[game_id] = "waiting"
        return store.lock_stream(self.conn, game_id)

    def lock(self, game_id: UUID) -> StreamHead:
        return store.lock_stream(self.conn, game_id)

    def lock_as(self, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
        return seat_tokens.lock_as(self.conn, game_id, token)

    def load(self, game_id: UUID, head: StreamHead) -> Table:
        table, _ = self._repository.load(self.conn, game_id, current_version=head.version)
        self._status[game_id] = table.status
        return table

    def append(
        self, game_id: UUID, head: StreamHead, events: Sequence[Event], table: Table
    ) -> list[StoredEvent]:
        sign = self._signer.sign if self._signer else None
        stored = store.append(
            self.conn, game_id, head.version, new_events(events), locked_head=head, sign=sign
        )
        if self._status.get(game_id) != table.status:
            store.set_stream_status(self.conn, game_id, table.status)
            self._status[game_id] = table.status
        version = head.version + len(stored)
        self._repository.snapshot_if_due(self.conn, game_id, head.version, version, table)
        self._committed.append((game_id, version, table))
        return stored

    def add_work(
        self, game_id: UUID, version: int, work: Sequence[Work], urgent: bool = False
    ) -> None:
        for item in work:
            outbox.add(self.conn, game_id, version, item, urgent)
            self._work_queued = True

    def work_done(self, game_id: UUID, version: int, work: Work) -> None:
        outbox.mark_done(self.conn, game_id, version, work)

    def save_token(self, game_id: UUID, seat: int, token: str) -> None:
        seat_tokens.save(self.conn, game_id, seat, token)

    def revoke_token(self, game_id: UUID, seat: int) -> None:
        seat_tokens.revoke(self.conn, game_id, seat)

    def save_invite(self, game_id: UUID, seat: int, invite: str) -> None:
        seat_tokens.save_invite(self.conn, game_id, seat, invite)

    def set_timers(
        self, game_id: UUID, waiting: dict[int, int], seconds: int, new: Sequence[StoredEvent]
    ) -> None:
        turn_timers.set_timers(self.conn, game_id, waiting, seconds, new)

    def deadline(self, game_id: UUID, seat: int, since: int) -> datetime | None:
        return turn_timers.deadline(self.conn, game_id, seat, since)

    def invite_matches(self, game_id: UUID, seat: int, invite: str) -> bool:
        return seat_tokens.invite_matches(self.conn, game_id, seat, invite)
