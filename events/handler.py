"""The one command handler that the API and the workers both call:
load -> decide -> append with the expected version -> outbox, all in one transaction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

from domain import table as tables
from domain.codec import to_json
from domain.decider import DomainError, Event
from domain.table import Table
from events import outbox, store
from events.idempotent_requests import IdempotentRequest
from events.repository import GameNotFound, Repository
from events.seat_tokens import SeatTokens
from events.shuffle import fresh_deal
from events.signing import HeadSigner
from events.store import NewEvent, StoredEvent

OUTBOX_CHANNEL = "cardroom_outbox"


class VersionConflict(DomainError):
    code = "version-conflict"

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


@dataclass
class Outcome:
    game_id: UUID
    version: int
    table: Table
    stored: list[StoredEvent] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    response: tuple[int, dict] | None = None


Decision = Callable[[Table], list[Event]]
Respond = Callable[[Outcome], tuple[int, dict]]
Extra = Callable[[object, Outcome], None]


def bot_kind(seat: int) -> str:
    """The outbox kind of a bot's turn (also part of the RQ job id, so no colons)."""
    return f"bot-{seat}"


def new_events(events: list[Event]) -> list[NewEvent]:
    return [NewEvent(type(e).__name__, to_json(e), e.actor(), e.visible_to()) for e in events]


def with_deals(table: Table, events: list[Event]) -> tuple[Table, list[Event]]:
    """Apply the decided events, then deal whenever the game waits for a deal."""
    for event in events:
        table = tables.evolve(table, event)
    while (cards := tables.pending_deal(table)) is not None:
        deal = fresh_deal(cards, len(table.seats), tables.next_fixed_deck(table))
        dealt = tables.decide(table, deal)
        for event in dealt:
            table = tables.evolve(table, event)
        events = events + dealt
    return table, events


class Handler:
    def __init__(
        self, pool, repository: Repository | None = None, signer: HeadSigner | None = None
    ) -> None:
        self.pool = pool
        self.repository = repository or Repository()
        self.tokens = SeatTokens()
        self.signer = signer  # signs every new head; without one, heads go unsigned

    def create(
        self,
        game_id: UUID,
        game_type,
        command: tables.CreateTable,
        *,
        idem: IdempotentRequest | None = None,
        respond: Respond | None = None,
        extra: Extra | None = None,
    ) -> Outcome:
        events = tables.decide_create(game_type, command)
        with self.pool.connection() as conn, conn.transaction():
            if idem and (first := idem.first_response(conn)):
                return Outcome(game_id, -1, None, response=first)
            created, *rest = events
            table, rest = with_deals(tables.create(game_type, created), rest)
            events = [created, *rest]
            store.create_stream(conn, game_id, game_type.id)
            store.set_stream_status(conn, game_id, table.status)
            outcome = self._commit(conn, game_id, 0, table, events, idem, respond, extra)
        return self._committed(outcome)

    def execute(
        self,
        game_id: UUID,
        decision: Decision,
        *,
        expected_version: int | None = None,
        idem: IdempotentRequest | None = None,
        respond: Respond | None = None,
        extra: Extra | None = None,
    ) -> Outcome:
        """Decide on the latest state and append. The stream row is locked before the state is
        loaded, so writers of one game take turns and each decides on what the one before it
        committed: without `expected_version` a concurrent write delays a command, it never
        fails it. With it, any other version is a conflict."""
        with self.pool.connection() as conn, conn.transaction():
            if idem and (first := idem.first_response(conn)):
                return Outcome(game_id, -1, None, response=first)
            try:
                head = store.lock_stream(conn, game_id)
            except store.StreamNotFound:
                raise GameNotFound(str(game_id)) from None
            version = head.version
            if expected_version is not None and expected_version != version:
                raise VersionConflict(version)
            table, version = self.repository.load(conn, game_id, current_version=version)
            before = table.status
            table, events = with_deals(table, decision(table))
            if table.status != before:
                store.set_stream_status(conn, game_id, table.status)
            outcome = self._commit(
                conn, game_id, version, table, events, idem, respond, extra, locked_head=head
            )
        return self._committed(outcome)

    def _committed(self, outcome: Outcome) -> Outcome:
        # Only a committed state may enter the cache.
        self.repository.remember(outcome.game_id, outcome.version, outcome.table)
        return outcome

    def _commit(
        self, conn, game_id, version, table, events, idem, respond, extra, locked_head=None
    ) -> Outcome:
        # The append NOTIFYs `game_events` with the game id at commit: a hint for listeners.
        sign = self.signer.sign if self.signer else None
        stored = store.append(
            conn, game_id, version, new_events(events), locked_head=locked_head, sign=sign
        )
        outcome = Outcome(game_id, version + len(events), table, stored, events)
        self.repository.snapshot_if_due(conn, game_id, version, outcome.version, table)
        self._queue_work(conn, outcome)
        if extra:
            extra(conn, outcome)
        if respond:
            outcome.response = respond(outcome)
            if idem:
                idem.complete(conn, *outcome.response)
        return outcome

    def _queue_work(self, conn, outcome: Outcome) -> None:
        """Write outbox rows for every bot the game now waits on, and for automatic work."""
        table = outcome.table
        kinds = [
            bot_kind(seat)
            for seat in table.game_type.to_act(table.game)
            if table.seats[seat].kind == tables.BOT
        ]
        automatic = table.game_type.automatic(table.game)
        if automatic:
            kinds.append(automatic)
        for kind in kinds:
            outbox.add(conn, outcome.game_id, outcome.version, kind)
        if kinds:
            conn.execute("SELECT pg_notify(%s, '')", (OUTBOX_CHANNEL,))
