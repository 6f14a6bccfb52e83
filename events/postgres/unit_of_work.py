"""The unit of work on Postgres: one pooled connection, one transaction (READ COMMITTED; the
stream row lock orders the writers of a game).

Round trips are what an action costs most, here and in Postgres, so a unit makes as few as it
can, and sends each in one message:
- the transaction begins with the unit's first statement: when that is the game's lock, its
  BEGIN goes with it;
- an append is held back until the unit's COMMIT, which goes with it (or, should another
  statement come first, until that one, which it goes ahead of).
So an action is two round trips: BEGIN with the lock, then the append with COMMIT, each pair one
query string (events/postgres/named_statements.py: one write and one wake-up of the backend,
the statement still planned once per connection). psycopg's pipeline mode would send the same
pair as three writes, each with a wait of its own, which cost more than the round trip saved.
A statement of a pair that fails skips the rest and fails the unit, as it would have one
statement at a time."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Self, TypeVar
from uuid import UUID

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import TupleRow

from domain.decider import Event
from domain.table import Table, seats_to_act
from events.idempotent_requests import Claim
from events.matchmaking.entries import QueueEntry
from events.outbox import Work
from events.postgres import (
    idempotency,
    named_statements,
    outbox,
    players,
    queue,
    seat_tokens,
    seed_commitments,
    store,
    turn_timers,
)
from events.postgres.connections import Connection, Pool
from events.postgres.named_statements import Statement
from events.postgres.repository import Repository
from events.records import StoredEvent, StreamHead, new_events
from events.signing import HeadSigner

T = TypeVar("T")


class PostgresUnitOfWork:
    def __init__(self, pool: Pool, repository: Repository, signer: HeadSigner | None) -> None:
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
        self._conn: Connection = self._stack.enter_context(self._pool.connection())
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
    def conn(self) -> Connection:
        """The unit's connection, inside its transaction (begun now, if no statement has), with
        any append still unsent sent and read."""
        if not self._begun:
            self._begun = True
            self._conn.execute("BEGIN")
        if self._unsent is not None:
            self._send_unsent()
        return self._conn

    def _first(self, statement: Statement, read: Callable[[psycopg.Cursor[TupleRow]], T]) -> T:
        """What `read` reads from the answer to `statement`; if it is the unit's first, the
        transaction's BEGIN goes with it, in one message."""
        if self._begun:
            return read(store.execute(self.conn, statement))
        self._begun = True  # from here, whatever happens, the transaction must be ended
        return read(named_statements.run(self._conn, "BEGIN", statement))

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
        self._unsent = None  # never sent: nothing of it reached Postgres
        try:
            self._conn.execute("ROLLBACK")
        except psycopg.Error:  # a broken connection: the pool replaces it
            pass

    def _send_unsent(self) -> None:
        unsent, self._unsent = self._unsent, None
        assert unsent is not None
        cursor = store.execute(self._conn, unsent.appending.statement)
        unsent.stored[:] = store.appended(unsent.appending, cursor)

    def _commit_with_unsent(self) -> None:
        unsent, self._unsent = self._unsent, None
        assert unsent is not None
        try:  # COMMIT does not run if the append fails
            cursor = named_statements.run(self._conn, "", unsent.appending.statement, "COMMIT")
        except psycopg.Error:
            self._rollback()  # a failed append left the transaction aborted: end it
            raise
        if self._conn.info.transaction_status != TransactionStatus.IDLE:
            self._rollback()
            raise RuntimeError("the append's COMMIT did not end the transaction")
        unsent.stored[:] = store.appended(unsent.appending, cursor)  # the first answer's rows

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        return idempotency.claim(self.conn, scope, key_id, request_hash)

    def complete(self, scope: str, key_id: str, record: dict[str, Any]) -> None:
        idempotency.complete(self.conn, scope, key_id, record)

    def create_stream(self, game_id: UUID, game_type: str, creator: str = "") -> StreamHead:
        head = self._first(
            store.create_statement(game_id, game_type, creator=creator),
            lambda cur: store.created_head(cur, game_id),
        )
        self._status[game_id] = "waiting"
        return head

    def lock(self, game_id: UUID) -> StreamHead:
        return self._first(store.lock_statement(game_id), lambda cur: store.head_of(cur, game_id))

    def lock_as(self, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
        return self._first(
            seat_tokens.lock_as_statement(game_id, token),
            lambda cur: seat_tokens.head_and_seat_of(cur, game_id),
        )

    def load(self, game_id: UUID, head: StreamHead) -> Table:
        table, _ = self._repository.load(self.conn, game_id, current_version=head.version)
        self._status[game_id] = table.status
        return table

    def append(
        self,
        game_id: UUID,
        head: StreamHead,
        events: Sequence[Event],
        table: Table,
        acted: int | None = None,
    ) -> list[StoredEvent]:
        sign = self._signer.sign if self._signer else None
        to_act = seats_to_act(table)
        appending = store.prepare_append(
            game_id, head, new_events(events), sign=sign, to_act=to_act, acted=acted
        )
        version = head.version + len(appending.chained)
        self._committed.append((game_id, version, table))
        status_moves = self._status.get(game_id) != table.status
        if not status_moves and not self._repository.snapshot_due(head.version, version, table):
            return self._append_unsent(appending)
        stored = store.appended(appending, store.execute(self.conn, appending.statement))
        if status_moves:
            store.set_stream_status(self.conn, game_id, table.status)
            self._status[game_id] = table.status
        self._repository.snapshot_if_due(self.conn, game_id, head.version, version, table)
        return stored

    def _append_unsent(self, appending: store.Appending) -> list[StoredEvent]:
        """Holds the append back, to be sent with the unit's next statement or its COMMIT. The
        list it returns gets the events' global positions once that is sent."""
        self.conn  # noqa: B018  # begun, and an append held back before this one sent first
        self._unsent = _UnsentAppend(appending, list(appending.chained))
        return self._unsent.stored

    def add_work(
        self, game_id: UUID, version: int, work: Sequence[Work], urgent: bool = False
    ) -> None:
        for item in work:
            outbox.add(self.conn, game_id, version, item, urgent)
            self._work_queued = True

    def work_done(self, game_id: UUID, version: int, work: Work) -> None:
        outbox.mark_done(self.conn, game_id, version, work)

    def save_tokens(self, game_id: UUID, tokens: Mapping[int, str]) -> None:
        seat_tokens.save(self.conn, game_id, tokens)

    def revoke_token(self, game_id: UUID, seat: int) -> None:
        seat_tokens.revoke(self.conn, game_id, seat)

    def wake_streams(self, game_id: UUID) -> None:
        store.notify_game(self.conn, game_id)

    def seat_players(
        self, game_id: UUID, seated: Mapping[int, str], unseated: Sequence[int]
    ) -> None:
        if unseated:
            players.unseat(self.conn, game_id, unseated)
        if seated:
            players.seat(self.conn, game_id, {s: UUID(p) for s, p in seated.items()})

    def tell_players(
        self, game_id: UUID, version: int, notices: Sequence[tuple[str, str, int]]
    ) -> None:
        # Players' rows are locked for their numbers: always in the order of their ids, so two
        # commits telling the same players (a matched table, a shared table) never deadlock.
        # The sort is stable: each player's own notices keep their order.
        rows = sorted(((UUID(p), kind, seat) for p, kind, seat in notices), key=lambda r: r[0])
        players.wake_players(
            self.conn, sorted(set(players.add_notices(self.conn, game_id, version, rows)))
        )

    def save_invites(self, game_id: UUID, invites: Mapping[int, str]) -> None:
        seat_tokens.save_invites(self.conn, game_id, invites)

    def set_timers(
        self, game_id: UUID, waiting: dict[int, int], seconds: int, new: Sequence[StoredEvent]
    ) -> None:
        turn_timers.set_timers(self.conn, game_id, waiting, seconds, new)

    def deadline(self, game_id: UUID, seat: int, since: int) -> datetime | None:
        return turn_timers.deadline(self.conn, game_id, seat, since)

    def invite_matches(self, game_id: UUID, seat: int, invite: str) -> bool:
        return seat_tokens.invite_matches(self.conn, game_id, seat, invite)

    def save_seed_commitment(
        self, commitment_id: UUID, server_seed: str, lasts: timedelta
    ) -> datetime:
        return seed_commitments.save(self.conn, commitment_id, server_seed, lasts)

    def take_seed_commitment(self, commitment_id: UUID) -> str | None:
        return seed_commitments.take(self.conn, commitment_id)

    def take_queue_entries(self, entry_ids: Sequence[int]) -> list[QueueEntry]:
        return queue.take(self.conn, entry_ids)

    def record_matches(self, game_id: UUID, seats: Mapping[int, QueueEntry]) -> None:
        queue.record_matches(self.conn, game_id, seats)


@dataclass
class _UnsentAppend:
    """An append held back, not sent yet."""

    appending: store.Appending
    stored: list[StoredEvent]  # filled in with their global positions once sent
