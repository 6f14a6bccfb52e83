"""What the service does by itself, on the workers: bots' turns, automatic work such as round
scoring, and the turns of seats whose time ran out. Each in one unit of work, each done only
while the table still waits for exactly it, so a retried or duplicated order appends nothing.

A bot thinks outside the game's lock: its turn is read in one short unit of work, decided with
no lock held (a strong bot searches for `BOT_BUDGET_MS`, and humans at the table must not wait
on that to act), then committed in a second one only if the game is still at the version the
turn was queued at; otherwise the turn is stale and the game's newer work decides afresh.

A bot's generator is seeded by an HMAC over the turn (game, version, seat) under a secret the
service derives from its key: the operator can reproduce a bot's choice, a player cannot
predict it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from domain.kit.budget import Budget
from domain.kit.decider import Event, fold
from domain.kit.game_type import Rng
from domain.tables import policy
from domain.tables import table as tables
from domain.tables.presence import TimeOut
from events import outbox
from events.committing import Committer
from events.outbox import AutomaticWork, BotTurn, Work
from events.records import StreamHead
from events.unit_of_work import UnitOfWork

log = logging.getLogger("cardroom.automation")

BOT_SEED_PURPOSE = "cardroom/bot-seeds"  # the derived secret's purpose (events/bootstrap.py)


def bot_seed(secret: bytes, game_id: UUID, version: int, seat: int) -> int:
    """The turn's seed: HMAC-SHA256 of `game:version:seat` under the secret (128 bits kept)."""
    message = f"{game_id}:{version}:{seat}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:16], "big")


def bot_rng(secret: bytes, game_id: UUID, version: int, seat: int) -> Rng:
    """The generator a bot gets for its turn: reproducible with the secret, else unpredictable."""
    return random.Random(bot_seed(secret, game_id, version, seat))


class Automation:
    def __init__(
        self,
        units: Callable[[], UnitOfWork],
        committer: Committer,
        bot_secret: bytes | None = None,
        bot_budget: Callable[[], Budget | None] = lambda: None,
    ) -> None:
        """`bot_secret`: the service passes its derived secret; without one, a random secret of
        this process (unpredictable, not reproducible). `bot_budget` makes each bot move's
        budget (a Deadline in the service; None: a searching bot's own default)."""
        self._units = units
        self._committer = committer
        self._bot_secret = bot_secret if bot_secret is not None else secrets.token_bytes(32)
        self._bot_budget = bot_budget

    def turn_rng(self, game_id: UUID, version: int, seat: int) -> Rng:
        return bot_rng(self._bot_secret, game_id, version, seat)

    def run_work(self, game_id: UUID, version: int, work: Work) -> str:
        """Work queued at `version`; "done", or "stale" when the game has moved on. Either way
        it is marked done in the same commit."""
        if isinstance(work, BotTurn):
            return self._bot_turn(game_id, version, work)
        assert isinstance(work, AutomaticWork)
        with self._units() as uow:
            due = self._due(uow, game_id, version, work)
            if due is None:
                return "stale"
            head, table = due
            events = policy.automatic_work(table, work.kind)
            self._committer.commit(uow, game_id, head, table, events)
            uow.work_done(game_id, version, work)
        return "done"

    def _bot_turn(self, game_id: UUID, version: int, work: BotTurn) -> str:
        with self._units() as uow:  # a short read: the lock is let go before the bot thinks
            due = self._due(uow, game_id, version, work)
        if due is None:
            return "stale"
        _, table = due
        rng = self.turn_rng(game_id, version, work.seat)
        move = policy.bot_move(table, work.seat, rng, budget=self._bot_budget())
        events = self._logged(move, work.seat)
        with self._units() as uow:
            head = uow.lock(game_id)
            if head.version != version:  # someone acted meanwhile: the move was for a past game
                uow.work_done(game_id, version, work)
                return "stale"
            # Still at that version, so still the very table the move was decided on.
            self._committer.commit(uow, game_id, head, uow.load(game_id, head), events)
            uow.work_done(game_id, version, work)
        return "done"

    @staticmethod
    def _due(
        uow: UnitOfWork, game_id: UUID, version: int, work: Work
    ) -> tuple[StreamHead, tables.Table] | None:
        """The locked head and table if the game is at `version` and waits for `work`; else
        the work is marked done (stale) in this unit and None comes back."""
        head = uow.lock(game_id)
        table = uow.load(game_id, head) if head.version == version else None
        if table is None or work not in outbox.work_due(policy.due(table)):
            uow.work_done(game_id, version, work)
            return None
        return head, table

    def time_out(self, game_id: UUID, seat: int, since: int, now: datetime) -> str:
        """The seat's turn that began at version `since` ran out: TurnTimedOut, then the basic
        bot's move for it from its own view (or, at its last timeout, it leaves and its bot
        plays on). "done"; "left to bots" when that seat was the table's last human, so that
        bots alone play on (it may count against its creator's quota of such tables,
        events/operations/bot_tables.py); or "stale" if the seat acted meanwhile or the turn
        is not over. The basic bot answers at once, so this move is made under the lock."""
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
                rng = self.turn_rng(game_id, after.version, seat)
                events += self._logged(policy.bot_move(after, seat, rng, tables.BASIC), seat)
            self._committer.commit(uow, game_id, head, table, events)
            if after.seats[seat].kind != tables.HUMAN:  # timed out too often: it has left
                uow.revoke_token(game_id, seat)
        if all(info.kind != tables.HUMAN for info in after.seats):
            return "left to bots"
        return "done"

    @staticmethod
    def _logged(move: policy.BotMove, seat: int) -> list[Event]:
        if move.failure is not None:
            log.error("the bot at seat %s failed (%r); it played its first legal action",
                      seat, move.failure)  # fmt: skip
        return move.events
