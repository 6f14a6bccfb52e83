"""The unit of work on Postgres: one pooled connection, one transaction (READ COMMITTED; the
stream row lock orders the writers of a game).

Round trips are what an action costs most, here and in Postgres, so a unit makes as few as it
can, and sends each in one message:
- the transaction begins with the unit's first statement: when that is the game's lock, its
  BEGIN goes with it;
- an append is held back (a PendingAppend, events/pending_append.py, with its statement) to go
  with the unit's COMMIT; each statement the unit makes after it sends it first, on its own
  (`_send_pending`, called by every statement method), so the statements still reach Postgres
  in the order they were made. Its events as stored (their global positions) are read from it
  once it is sent: at the latest, once the unit has ended.
So an action is two round trips: BEGIN with the lock, then the append with COMMIT, each pair one
query string (events/postgres/named_statements.py: one write and one wake-up of the backend,
the statement still planned once per connection). psycopg's pipeline mode would send the same
pair as three writes, each with a wait of its own, which cost more than the round trip saved.
A statement of a pair that fails skips the rest and fails the unit, as it would have one
statement at a time."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from datetime import datetime, timedelta
from typing import Any, Self, TypeVar
from uuid import UUID

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import TupleRow

from domain.kit.decider import Event
from domain.tables.table import Table, seats_to_act
from events.audit.signing import HeadSigner
from events.idempotent_requests import Claim
from events.matchmaking.entries import QueueEntry
from events.outbox import Work
from events.pending_append import PendingAppend
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
        self._appends: list[PendingAppend] = []  # dropped if the unit rolls back
        self._pending: _PreparedAppend | None = None  # held back, not sent yet

    def __enter__(self) -> Self:
        self._stack = ExitStack()
        self._conn: Connection = self._stack.enter_context(self._pool.connection())
        return self

    def __exit__(self, *raised: Any) -> None:
        committing = raised[0] is None
        try:
            if self._begun:
                self._end(committing)
        except BaseException:
            committing = False  # the end failed: nothing of the unit may look saved
            raise
        finally:  # the connection goes back to the pool however the end went
            if not committing:
                for appended in self._appends:
                    appended.drop()
            self._stack.__exit__(*raised)
        if committing:  # only a committed state may enter the cache
            for game_id, version, table in self._committed:
                self._repository.remember(game_id, version, table)

    def _transaction(self) -> Connection:
        """The unit's connection inside its transaction: BEGIN goes on its own now if no
        statement has carried it yet."""
        if not self._begun:
            self._begun = True
            self._conn.execute("BEGIN")
        return self._conn

    def _send_pending(self) -> None:
        """Sends the append held back, if any, on its own: called before each statement the
        unit makes after an append, which must find it done."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.saved_by(store.execute(self._conn, pending.appending.statement))

    def _first(self, statement: Statement, read: Callable[[psycopg.Cursor[TupleRow]], T]) -> T:
        """What `read` reads from the answer to `statement`; if it is the unit's first, the
        transaction's BEGIN goes with it, in one message."""
        if self._begun:
            self._send_pending()
            return read(store.execute(self._conn, statement))
        self._begun = True  # from here, whatever happens, the transaction must be ended
        return read(named_statements.run(self._conn, "BEGIN", statement))

    def _end(self, committing: bool) -> None:
        conn = self._conn
        if not committing:
            self._rollback()
            return
        if self._work_queued:
            self._send_pending()
            outbox.notify_relay(conn)
        if self._pending is not None:
            self._commit_with_pending()
            return
        if conn.info.transaction_status == TransactionStatus.INERROR:
            # COMMIT would answer ROLLBACK without an error: nothing may look committed.
            self._rollback()
            raise RuntimeError("a statement of the unit of work failed unnoticed")
        conn.execute("COMMIT")

    def _rollback(self) -> None:
        self._pending = None  # never sent: nothing of it reached Postgres
        try:
            self._conn.execute("ROLLBACK")
        except psycopg.Error:  # a broken connection: the pool replaces it
            pass

    def _commit_with_pending(self) -> None:
        pending, self._pending = self._pending, None
        assert pending is not None
        try:  # COMMIT does not run if the append fails
            cursor = named_statements.run(self._conn, "", pending.appending.statement, "COMMIT")
        except psycopg.Error:
            self._rollback()  # a failed append left the transaction aborted: end it
            raise
        if self._conn.info.transaction_status != TransactionStatus.IDLE:
            self._rollback()
            raise RuntimeError("the append's COMMIT did not end the transaction")
        pending.saved_by(cursor)  # the first answer's rows

    # Each method below that makes a statement sends a pending append first (`_send_pending`):
    # it may follow one. One that has nothing to write makes none, and leaves it pending.

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        self._send_pending()
        return idempotency.claim(self._transaction(), scope, key_id, request_hash)

    def complete(self, scope: str, key_id: str, record: dict[str, Any]) -> None:
        self._send_pending()
        idempotency.complete(self._transaction(), scope, key_id, record)

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
        self._send_pending()
        conn = self._transaction()
        table, _ = self._repository.load(conn, game_id, current_version=head.version)
        self._status[game_id] = table.status
        return table

    def append(
        self,
        game_id: UUID,
        head: StreamHead,
        events: Sequence[Event],
        table: Table,
        acted: int | None = None,
    ) -> PendingAppend:
        """Held back when nothing else of the append is due: a stream status that moves, or a
        snapshot due, are statements of their own after it, so then it is sent at once."""
        sign = self._signer.sign if self._signer else None
        to_act = seats_to_act(table)
        appending = store.prepare_append(
            game_id, head, new_events(events), sign=sign, to_act=to_act, acted=acted
        )
        appended = _PreparedAppend(appending)
        self._appends.append(appended)
        self._committed.append((game_id, appended.version, table))
        self._send_pending()  # an append held back before this one goes first
        conn = self._transaction()
        status_moves = self._status.get(game_id) != table.status
        snapshot_due = self._repository.snapshot_due(head.version, appended.version, table)
        if not (status_moves or snapshot_due):
            self._pending = appended
            return appended
        appended.saved_by(store.execute(conn, appending.statement))
        if status_moves:
            store.set_stream_status(conn, game_id, table.status)
            self._status[game_id] = table.status
        self._repository.snapshot_if_due(conn, game_id, head.version, appended.version, table)
        return appended

    def add_work(
        self, game_id: UUID, version: int, work: Sequence[Work], urgent: bool = False
    ) -> None:
        if not work:
            return
        self._send_pending()
        for item in work:
            outbox.add(self._transaction(), game_id, version, item, urgent)
            self._work_queued = True

    def work_done(self, game_id: UUID, version: int, work: Work) -> None:
        self._send_pending()
        outbox.mark_done(self._transaction(), game_id, version, work)

    def save_tokens(self, game_id: UUID, tokens: Mapping[int, str]) -> None:
        if not tokens:
            return
        self._send_pending()
        seat_tokens.save(self._transaction(), game_id, tokens)

    def revoke_token(self, game_id: UUID, seat: int) -> None:
        self._send_pending()
        seat_tokens.revoke(self._transaction(), game_id, seat)

    def wake_streams(self, game_id: UUID) -> None:
        self._send_pending()
        store.notify_game(self._transaction(), game_id)

    def seat_players(
        self, game_id: UUID, seated: Mapping[int, str], unseated: Sequence[int]
    ) -> None:
        if not (seated or unseated):
            return
        self._send_pending()
        if unseated:
            players.unseat(self._transaction(), game_id, unseated)
        if seated:
            players.seat(self._transaction(), game_id, {s: UUID(p) for s, p in seated.items()})

    def tell_players(
        self, game_id: UUID, version: int, notices: Sequence[tuple[str, str, int]]
    ) -> None:
        self._send_pending()
        conn = self._transaction()
        # Players' rows are locked for their numbers: always in the order of their ids, so two
        # commits telling the same players (a matched table, a shared table) never deadlock.
        # The sort is stable: each player's own notices keep their order.
        rows = sorted(((UUID(p), kind, seat) for p, kind, seat in notices), key=lambda r: r[0])
        players.wake_players(conn, sorted(set(players.add_notices(conn, game_id, version, rows))))

    def save_invites(self, game_id: UUID, invites: Mapping[int, str]) -> None:
        if not invites:
            return
        self._send_pending()
        seat_tokens.save_invites(self._transaction(), game_id, invites)

    def set_timers(
        self, game_id: UUID, waiting: dict[int, int], seconds: int, new: Sequence[StoredEvent]
    ) -> dict[int, datetime]:
        self._send_pending()
        return turn_timers.set_timers(self._transaction(), game_id, waiting, seconds, new)

    def deadline(self, game_id: UUID, seat: int, since: int) -> datetime | None:
        self._send_pending()
        return turn_timers.deadline(self._transaction(), game_id, seat, since)

    def invite_matches(self, game_id: UUID, seat: int, invite: str) -> bool:
        self._send_pending()
        return seat_tokens.invite_matches(self._transaction(), game_id, seat, invite)

    def save_seed_commitment(
        self, commitment_id: UUID, server_seed: str, lasts: timedelta
    ) -> datetime:
        self._send_pending()
        return seed_commitments.save(self._transaction(), commitment_id, server_seed, lasts)

    def take_seed_commitment(self, commitment_id: UUID) -> str | None:
        self._send_pending()
        return seed_commitments.take(self._transaction(), commitment_id)

    def take_queue_entries(self, entry_ids: Sequence[int]) -> list[QueueEntry]:
        self._send_pending()
        return queue.take(self._transaction(), entry_ids)

    def record_matches(self, game_id: UUID, seats: Mapping[int, QueueEntry]) -> None:
        self._send_pending()
        queue.record_matches(self._transaction(), game_id, seats)


class _PreparedAppend(PendingAppend):
    """An append with the statement that saves it, prepared (store.prepare_append)."""

    def __init__(self, appending: store.Appending) -> None:
        super().__init__(appending.chained)
        self.appending = appending

    def saved_by(self, cursor: psycopg.Cursor[TupleRow]) -> None:
        """Its events as stored, from the answer to its statement (their global positions)."""
        self.mark_sent(store.appended(self.appending, cursor))
