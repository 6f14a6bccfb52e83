"""What the service does by itself, on the workers: bots' turns, automatic work such as round
scoring, and the turns of seats whose time ran out. Each in one unit of work, each done only
while the table still waits for exactly it, so a retried or duplicated order appends nothing."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from domain import policy
from domain import table as tables
from domain.decider import Event, fold
from domain.game_type import Rng
from domain.presence import TimeOut
from events import outbox
from events.committing import Committer
from events.outbox import AutomaticWork, BotTurn, Work
from events.unit_of_work import UnitOfWork

log = logging.getLogger("cardroom.automation")


def bot_rng(game_id: UUID, version: int, seat: int) -> Rng:
    """Seeded by the turn itself, so a bot's choice can be reproduced from the log."""
    return random.Random(f"{game_id}:{version}:{seat}")


class Automation:
    def __init__(
        self,
        units: Callable[[], UnitOfWork],
        committer: Committer,
        turn_rng: Callable[[UUID, int, int], Rng] = bot_rng,
    ) -> None:
        self._units = units
        self._committer = committer
        self._turn_rng = turn_rng

    def run_work(self, game_id: UUID, version: int, work: Work) -> str:
        """Work queued at `version`; "done", or "stale" when the game has moved on. Either way
        it is marked done in the same commit."""
        with self._units() as uow:
            head = uow.lock(game_id)
            table = uow.load(game_id, head) if head.version == version else None
            if table is None or work not in outbox.work_due(policy.due(table)):
                uow.work_done(game_id, version, work)
                return "stale"
            events = self._work_events(game_id, version, table, work)
            self._committer.commit(uow, game_id, head, table, events)
            uow.work_done(game_id, version, work)
        return "done"

    def time_out(self, game_id: UUID, seat: int, since: int, now: datetime) -> str:
        """The seat's turn that began at version `since` ran out: TurnTimedOut, then the basic
        bot's move for it from its own view (or, at its last timeout, it leaves and its bot
        plays on). "done", or "stale" if the seat acted meanwhile or the turn is not over."""
        with self._units() as uow:
            head = uow.lock(game_id)
            table = uow.load(game_id, head)
            deadline = uow.deadline(game_id, seat, since)
            if deadline is None or now < deadline:
                return "stale"
            order = TimeOut(seat, since, now.timestamp(), deadline.timestamp())
            events = tables.decide(table, order)
            after = fold(tables.evolve, table, events)
            if after.seats[seat].kind == tables.HUMAN:  # still theirs: a move is made for it
                rng = self._turn_rng(game_id, after.version, seat)
                events += self._logged(policy.bot_move(after, seat, rng, tables.BASIC), seat)
            self._committer.commit(uow, game_id, head, table, events)
            if after.seats[seat].kind != tables.HUMAN:  # timed out too often: it has left
                uow.revoke_token(game_id, seat)
        return "done"

    def _work_events(
        self, game_id: UUID, version: int, table: tables.Table, work: Work
    ) -> list[Event]:
        if isinstance(work, AutomaticWork):
            return policy.automatic_work(table, work.kind)
        assert isinstance(work, BotTurn)
        rng = self._turn_rng(game_id, version, work.seat)
        return self._logged(policy.bot_move(table, work.seat, rng), work.seat)

    @staticmethod
    def _logged(move: policy.BotMove, seat: int) -> list[Event]:
        if move.failure is not None:
            log.error("the bot at seat %s failed (%r); it played its first legal action",
                      seat, move.failure)  # fmt: skip
        return move.events
