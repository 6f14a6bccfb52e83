"""The unit of work on Postgres: one pooled connection, one transaction (READ COMMITTED; the
stream row lock orders the writers of a game).

Round trips are what an action costs most, here and in Postgres, so a unit makes as few as it
can (psycopg's pipeline mode: statements sent together, then one Sync):
- the transaction begins with the unit's first statement: when that is the game's lock, its
  BEGIN goes in the same round trip;
- an append waits to be sent until the unit's next statement, or its COMMIT, goes with it.
So an action is two round trips: BEGIN with the lock, then the append with COMMIT. Whatever
fails in a pipeline fails the unit, as it would have failed it one statement at a time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Self, TypeVar
from uuid import UUID

import psycopg
from psycopg.pq import TransactionStatus

from domain.decider import Event
from domain.table import Table
from events.idempotent_requests import Claim
from events.outbox import Work
from events.postgres import idempotency, outbox, seat_tokens, store, turn_timers
from events.postgres.repository import Repository
from events.records import StoredEvent, StreamHead, new_events
from events.signing import HeadSigner

T = TypeVar("T")
PIPELINES = psycopg.Pipeline.is_supported()  # libpq 14 and later


class PostgresUnitOfWork:
    def __init__(self, pool, repository: Repository, signer: HeadSigner | None) -> None:
        self._pool = pool
        self._repository = repository
        self._signer = signer
        self._status: dict[UUID, str] = {}
        self._committed: list[tuple[UUID, int, Table]] = []
        self._work_queued = False
        self._begun = False
        self._unsent: _UnsentAppend | None = None

    def __enter__(self) -> Self:
        self._stack = ExitStack()
        self._conn: psycopg.Connection = self._stack.enter_context(self._pool.connection())
        return self

    def __exit__(self, *raised: Any) -> None:
        committing = raised[0] is None
        try:
            if self._begun:
                self._end(committing)
        finally:  # the connection goes back to the pool however the end went
            self._stack.__exit__(*raised)
        if committing:  # only a committed state may enter the cache
            for game_id, version, table in self._committed:
                self._repository.remember(game_id, version, table)

    @property
    def conn(self) -> psycopg.Connection:
        """The unit's connection, inside its transaction (begun now, if no statement has), with
        any append still unsent sent and read."""
        if not self._begun:
            self._begun = True
            self._conn.execute("BEGIN")
        if self._unsent is not None:
            self._send_unsent()
        return self._conn

    def _first(
        self,
        send: Callable[[psycopg.Connection], psycopg.Cursor],
        read: Callable[[psycopg.Cursor], T],
    ) -> T:
        """What `read` reads from the statement `send` sends; if it is the unit's first, the
        transaction's BEGIN goes in the same round trip. The pipeline is sent as it closes,
        with one Sync (a fetch inside it would cost a round trip of its own)."""
        if self._begun or not PIPELINES:
            return read(send(self.conn))
        self._begun = True  # from here, whatever happens, the transaction must be ended
        with self._conn.pipeline():
            self._conn.execute("BEGIN")
            cursor = send(self._conn)
        return read(cursor)

    def _end(self, committing: bool) -> None:
        conn = self._conn
        if not committing:
            self._rollback()
            return
        if self._work_queued:
            outbox.notify_relay(self.conn)
        if self._unsent is not None:
            self._commit_with_unsent()
            return
        if conn.info.transaction_status == TransactionStatus.INERROR:
            # COMMIT would answer ROLLBACK without an error: nothing may look committed.
            self._rollback()
            raise RuntimeError("a statement of the unit of work failed unnoticed")
        conn.execute("COMMIT")

    def _rollback(self) -> None:
        unsent, self._unsent = self._unsent, None
        try:
            if unsent is not None:  # what it queued goes, and is rolled back with the rest
                unsent.pipeline.__exit__(None, None, None)
            self._conn.execute("ROLLBACK")
        except psycopg.Error:  # a broken connection: the pool replaces it
            pass

    def _send_unsent(self) -> None:
        unsent, self._unsent = self._unsent, None
        assert unsent is not None
        unsent.pipeline.__exit__(None, None, None)  # sends what it queued, reads the answers
        unsent.stored[:] = store.appended(unsent.appending, unsent.cursor)

    def _commit_with_unsent(self) -> None:
        unsent = self._unsent
        assert unsent is not None
        self._conn.execute("COMMIT")  # queued behind the append: skipped if the append failed
        try:
            self._send_unsent()
        except psycopg.Error:
            self._rollback()  # a failed append left the transaction aborted: end it
            raise
        if self._conn.info.transaction_status != TransactionStatus.IDLE:
            self._rollback()
            raise RuntimeError("the append's COMMIT did not end the transaction")

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        return idempotency.claim(self.conn, scope, key_id, request_hash)

    def complete(self, scope: str, key_id: str, record: dict) -> None:
        idempotency.complete(self.conn, scope, key_id, record)

    def create_stream(self, game_id: UUID, game_type: str) -> StreamHead:
        store.create_stream(self.conn, game_id, game_type)
        self._status[game_id] = "waiting"
        return store.lock_stream(self.conn, game_id)

    def lock(self, game_id: UUID) -> StreamHead:
        return self._first(
            lambda conn: store.send_lock(conn, game_id), lambda cur: store.head_of(cur, game_id)
        )

    def lock_as(self, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
        return self._first(
            lambda conn: seat_tokens.send_lock_as(conn, game_id, token),
            lambda cur: seat_tokens.head_and_seat_of(cur, game_id),
        )

    def load(self, game_id: UUID, head: StreamHead) -> Table:
        table, _ = self._repository.load(self.conn, game_id, current_version=head.version)
        self._status[game_id] = table.status
        return table

    def append(
        self, game_id: UUID, head: StreamHead, events: Sequence[Event], table: Table
    ) -> list[StoredEvent]:
        sign = self._signer.sign if self._signer else None
        appending = store.prepare_append(game_id, head, new_events(events), sign=sign)
        version = head.version + len(appending.chained)
        self._committed.append((game_id, version, table))
        status_moves = self._status.get(game_id) != table.status
        if not status_moves and not self._repository.snapshot_due(head.version, version, table):
            return self._append_unsent(appending)
        stored = store.appended(appending, store.send_append(self.conn, appending))
        if status_moves:
            store.set_stream_status(self.conn, game_id, table.status)
            self._status[game_id] = table.status
        self._repository.snapshot_if_due(self.conn, game_id, head.version, version, table)
        return stored

    def _append_unsent(self, appending: store.Appending) -> list[StoredEvent]:
        """Queues the append, to be sent with the unit's next statement or its COMMIT. The list
        it returns gets the events' global positions once that is sent."""
        conn = self.conn
        if not PIPELINES:
            return store.appended(appending, store.send_append(conn, appending))
        pipeline = conn.pipeline()
        pipeline.__enter__()
        try:
            cursor = store.send_append(conn, appending)
        except BaseException as error:
            pipeline.__exit__(type(error), error, error.__traceback__)
            raise
        stored = list(appending.chained)
        self._unsent = _UnsentAppend(pipeline, appending, cursor, stored)
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


@dataclass
class _UnsentAppend:
    """An append queued in a pipeline that is not sent yet."""

    pipeline: AbstractContextManager[Any]  # the entered `conn.pipeline()`
    appending: store.Appending
    cursor: psycopg.Cursor
    stored: list[StoredEvent]  # filled in with their global positions once sent
