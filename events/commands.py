"""The write side: every command of a client or a worker, each in one unit of work. Lock the
game, load it, decide, deal while a deal is due, append, queue what the table now waits for
(domain/policy.py), record the idempotent request; return domain results, never HTTP shapes.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from uuid import UUID

from domain import policy
from domain import table as tables
from domain.actions import command_from_action
from domain.decider import Event, IllegalAction
from domain.game_type import GameType, Rng
from events import outbox
from events.errors import ActionRefused, IdempotencyKeyReused, RequestInProgress, VersionConflict
from events.idempotent_requests import ClaimKind, IdempotentRequest
from events.outbox import AutomaticWork, BotTurn, Work
from events.records import StoredEvent, StreamHead
from events.sealing import Sealer
from events.unit_of_work import UnitOfWork

log = logging.getLogger("cardroom.commands")


@dataclass(frozen=True)
class Committed:
    """What a command appended: the game went from `before` to `version`."""

    game_id: UUID
    before: int
    version: int
    table: tables.Table
    stored: list[StoredEvent]
    events: list[Event]
    tokens: Mapping[int, str] = field(default_factory=dict)  # new seat tokens, by seat


@dataclass(frozen=True)
class Replayed:
    """A retried request (same Idempotency-Key, same body): what the first one did."""

    game_id: UUID
    before: int
    version: int
    seat: int | None
    tokens: Mapping[int, str]


def bot_rng(game_id: UUID, version: int, seat: int) -> Rng:
    """Seeded by the turn itself, so a bot's choice can be reproduced from the log."""
    return random.Random(f"{game_id}:{version}:{seat}")


class Commands:
    def __init__(
        self,
        units: Callable[[], UnitOfWork],
        sealer: Sealer,
        deal_rng: Rng,
        new_token: Callable[[], str],
        turn_rng: Callable[[UUID, int, int], Rng] = bot_rng,
    ) -> None:
        self._units = units
        self._sealer = sealer
        self._deal_rng = deal_rng  # SystemRandom in production: shuffles and salts
        self._new_token = new_token
        self._turn_rng = turn_rng

    def create(
        self,
        game_id: UUID,
        game_type: GameType,
        command: tables.CreateTable,
        idem: IdempotentRequest | None = None,
    ) -> Committed | Replayed:
        """A table, dealt at once if no seat is open; a token for each human seat."""
        created, *rest = tables.decide_create(game_type, command)
        seats = command.seats
        tokens = {s: self._new_token() for s, info in enumerate(seats) if info.kind == "human"}
        with self._units() as uow:
            if idem and (replay := self._replay(uow, idem)):
                return replay
            head = uow.create_stream(game_id, game_type.id)
            assert isinstance(created, tables.TableCreated)  # decide_create's first event
            table = tables.create(game_type, created)
            committed = self._commit(uow, game_id, head, table, rest, applied=[created])
            for seat, token in tokens.items():
                uow.save_token(game_id, seat, token)
            if idem:
                self._record(uow, idem, committed, None, tokens)
        return _with_tokens(committed, tokens)

    def act(
        self,
        game_id: UUID,
        seat: int,
        action: dict,
        expected_version: int | None = None,
        idem: IdempotentRequest | None = None,
    ) -> Committed | Replayed:
        """A seat's action. Writers of a game take turns on its lock, so without
        `expected_version` a concurrent write delays an action and never fails it."""
        with self._units() as uow:
            if idem and (replay := self._replay(uow, idem)):
                return replay
            head = uow.lock(game_id)
            if expected_version is not None and expected_version != head.version:
                raise VersionConflict(game_id, expected_version, head.version)
            table = uow.load(game_id, head)
            try:
                command = command_from_action(table.game_type, seat, action)
                decided = tables.decide(table, command)
            except IllegalAction as error:
                raise ActionRefused(error.message, _legal(table, seat)) from None
            committed = self._commit(uow, game_id, head, table, decided)
            if idem:
                self._record(uow, idem, committed, seat, {})
        return committed

    def join(self, game_id: UUID, seat: int, name: str) -> Committed:
        """Takes an open seat; the game is dealt once no seat is open."""
        token = self._new_token()
        with self._units() as uow:
            head = uow.lock(game_id)
            table = uow.load(game_id, head)
            decided = tables.decide(table, tables.JoinSeat(seat, name))
            committed = self._commit(uow, game_id, head, table, decided)
            uow.save_token(game_id, seat, token)
        return _with_tokens(committed, {seat: token})

    def run_work(self, game_id: UUID, version: int, work: Work) -> str:
        """Work queued at `version`, done only if the game is still there and still waits for
        exactly it; either way it is marked done in the same commit, so a retried or
        duplicated job appends nothing. Returns "done" or "stale"."""
        with self._units() as uow:
            head = uow.lock(game_id)
            table = uow.load(game_id, head) if head.version == version else None
            if table is None or work not in outbox.work_due(policy.due(table)):
                uow.work_done(game_id, version, work)
                return "stale"
            events = self._work_events(game_id, version, table, work)
            self._commit(uow, game_id, head, table, events)
            uow.work_done(game_id, version, work)
        return "done"

    def _work_events(
        self, game_id: UUID, version: int, table: tables.Table, work: Work
    ) -> list[Event]:
        if isinstance(work, AutomaticWork):
            return policy.automatic_work(table, work.kind)
        assert isinstance(work, BotTurn)
        move = policy.bot_move(table, work.seat, self._turn_rng(game_id, version, work.seat))
        if move.failure is not None:
            log.error("the bot at seat %s failed (%r); it played its first legal action",
                      work.seat, move.failure)  # fmt: skip
        return move.events

    def _commit(
        self,
        uow: UnitOfWork,
        game_id: UUID,
        head: StreamHead,
        table: tables.Table,
        decided: list[Event],
        applied: list[Event] | None = None,
    ) -> Committed:
        """Appends the decided events and the deals now due, and queues what is due next.
        `applied` are events already folded into `table` (a new table's TableCreated)."""
        table, dealt = policy.with_deals(table, decided, self._deal_rng)
        events = [*(applied or []), *dealt]
        stored = uow.append(game_id, head, events, table)
        version = head.version + len(events)
        uow.add_work(game_id, version, outbox.work_due(policy.due(table)))
        return Committed(game_id, head.version, version, table, stored, events)

    def _replay(self, uow: UnitOfWork, idem: IdempotentRequest) -> Replayed | None:
        claim = uow.claim(idem.scope, self._sealer.key_id(idem.key), idem.request_hash)
        if claim.kind == ClaimKind.IN_PROGRESS:
            raise RequestInProgress("a request with this Idempotency-Key is still being served")
        if claim.kind == ClaimKind.REUSED:
            raise IdempotencyKeyReused("this Idempotency-Key was used with a different request")
        if claim.kind == ClaimKind.NEW:
            return None
        record = claim.record
        tokens = {}
        if record.get("tokens"):
            opened = self._sealer.unseal(record["tokens"], idem.key, idem.scope)
            tokens = {int(seat): token for seat, token in json.loads(opened).items()}
        return Replayed(
            UUID(record["game_id"]), record["before"], record["version"], record["seat"], tokens
        )

    def _record(
        self,
        uow: UnitOfWork,
        idem: IdempotentRequest,
        committed: Committed,
        seat: int | None,
        tokens: Mapping[int, str],
    ) -> None:
        sealed = None
        if tokens:
            plain = json.dumps({str(s): t for s, t in tokens.items()}).encode()
            sealed = self._sealer.seal(plain, idem.key, idem.scope)
        record = {
            "game_id": str(committed.game_id),
            "before": committed.before,
            "version": committed.version,
            "seat": seat,
            "tokens": sealed,
        }
        uow.complete(idem.scope, self._sealer.key_id(idem.key), record)


def _legal(table: tables.Table, seat: int) -> list[dict]:
    if not table.started or table.status == "finished":
        return []
    return table.game_type.legal_actions(table.game, seat)


def _with_tokens(committed: Committed, tokens: Mapping[int, str]) -> Committed:
    return Committed(
        committed.game_id,
        committed.before,
        committed.version,
        committed.table,
        committed.stored,
        committed.events,
        dict(tokens),
    )
