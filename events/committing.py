"""The end of every command's unit of work: the decided events and the deals now due are
appended, the turn timers follow the table, and what the table waits for next is queued (and
at a rated table's end, the ratings' work)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from domain.kit.decider import Event
from domain.kit.game_type import Rng
from domain.kit.outcome import GameEnded
from domain.tables import policy
from domain.tables import table as tables
from domain.tables.notices import Notice, notices_of
from domain.tables.rated_tables import is_rated
from events import outbox
from events.records import StreamHead
from events.results import Committed
from events.unit_of_work import UnitOfWork


class Committer:
    def __init__(self, deal_rng: Rng) -> None:
        self._deal_rng = deal_rng  # SystemRandom in production

    @property
    def rng(self) -> Rng:
        """The service's randomness: server seeds, the seeds of seats that give none, and the
        shuffles of tables from before seeds."""
        return self._deal_rng

    def commit(
        self,
        uow: UnitOfWork,
        game_id: UUID,
        head: StreamHead,
        table: tables.Table,
        decided: list[Event],
        applied: list[Event] | None = None,
        acted: int | None = None,
        notices: Sequence[Notice] = (),
    ) -> Committed:
        """`applied` are events already folded into `table` (a new table's TableCreated);
        `acted` is the seat whose own move this is (a client's action), if any; `notices` are
        told before those the commit itself gives (the matchmaker's `match_found`). The
        result's stored events are read once `uow` has ended."""
        before = None if applied else table
        table, dealt = policy.with_deals(table, decided, self._deal_rng, str(game_id))
        events = [*(applied or []), *dealt]
        appended = uow.append(game_id, head, events, table, acted)
        version = appended.version
        seconds = table.options.get("turn_seconds")
        deadlines: dict[int, datetime] = {}
        if seconds is not None:  # the new events' moments are known before they are sent
            deadlines = uow.set_timers(game_id, policy.timers(table), seconds, appended.chained)
        urgent = any(seat.kind == tables.HUMAN for seat in table.seats)
        uow.add_work(game_id, version, outbox.work_due(policy.due(table)), urgent)
        if is_rated(table.options) and any(isinstance(e, GameEnded) for e in events):
            # Urgent: players wait for their new ratings, and it is a few milliseconds of
            # work once per game, which would otherwise queue behind every bot turn due.
            uow.add_work(game_id, version, [outbox.RateGame()], urgent=True)
        _keep_players(uow, game_id, version, before, table, events, notices)
        return Committed(game_id, head.version, version, table, appended, events, deadlines)


def _keep_players(
    uow: UnitOfWork,
    game_id: UUID,
    version: int,
    before: tables.Table | None,
    after: tables.Table,
    events: list[Event],
    first: Sequence[Notice],
) -> None:
    """The seats players took or lost, and what the commit tells them (`first`, then what
    domain/tables/notices.py says): nothing to do, and no statement, at a table of anonymous
    seats."""
    held_before = _players_seated(before)
    held_after = _players_seated(after)
    seated = {s: p for s, p in held_after.items() if held_before.get(s) != p}
    unseated = [s for s, p in held_before.items() if held_after.get(s) != p]
    if seated or unseated:
        uow.seat_players(game_id, seated, unseated)
    told = [*first, *notices_of(before, after, events)]
    if told:
        uow.tell_players(game_id, version, [(n.player, n.kind, n.seat) for n in told])


def _players_seated(table: tables.Table | None) -> dict[int, str]:
    if table is None:
        return {}
    return {
        index: seat.player
        for index, seat in enumerate(table.seats)
        if seat.kind == tables.HUMAN and seat.player is not None
    }
