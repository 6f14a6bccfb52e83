"""Games for the history bench (bench/history.py), played by the service's own command code.

Every game is played for real, through `events.commands.Commands` and `events.automation`
(the code the API and the workers run), into a unit of work that records in memory what the
Postgres one would write: the chained events, the stream row, the snapshot, seat tokens and
invites, the players' seats and notices, and the outbox. Nothing is copied from another game:
a seeded table's deals are derived from its game id (docs/audit.md, section 7), so a game
replayed under a new id would deal other cards and fail its audit.

Seat 0 is a player's (a human seat whose moves are chosen as the bot of the game's level
would choose them, from that seat's view); the other seats are bots. A game is a pure
function of (seed, index) except for the nonces, which the store draws.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Self
from uuid import UUID

from domain.games import GAME_TYPES
from domain.kit.decider import Event
from domain.tables import table as tables
from domain.tables.snapshot import table_to_json
from domain.tables.table import Table, seats_to_act
from domain.tables.view import view_table
from events.audit.chain import CURRENT_FORMAT, GENESIS
from events.automation import Automation
from events.commands import Commands
from events.committing import Committer
from events.folding import CODE_VERSION
from events.idempotent_requests import Claim
from events.outbox import Work, decode, encode
from events.pending_append import PendingAppend
from events.postgres.repository import Repository
from events.records import StoredEvent, StreamHead, chained_events, new_events
from events.sealing import Sealer
from events.seeds import random_hex

# (game, seats, bot level, weight): about 155 events a game on average.
MIX: tuple[tuple[str, int, str, int], ...] = (
    ("saint_poker", 4, "basic", 30),
    ("st_patrick", 3, "random", 25),
    ("st_patrick", 4, "basic", 10),
    ("ouroboros_trick", 4, "basic", 20),
    ("trick_and_snipers", 4, "basic", 15),
)
HUMAN_THINKS = (2.0, 20.0)  # seconds a player takes for a move
BOT_THINKS = (0.2, 1.5)  # seconds between a commit and the bot's move on the workers


@dataclass(frozen=True)
class GameSpec:
    """Which game to play, who plays it, when it starts, and how far to play it."""

    index: int
    game_id: UUID
    game_type: str
    seats: int
    level: str
    player: UUID  # holds seat 0
    creator: str
    start: datetime
    stop_after: int | None = None  # None: to the end; else the player's first turn after so
    open_seat: bool = False  # seat 1 open: the table waits for someone to join (not dealt)


def spec_for(
    seed: int,
    index: int,
    players: Sequence[UUID],
    start: datetime,
    active: bool = False,
) -> GameSpec:
    """The game `index` of a history, from the seed alone: the same spec every time."""
    rng = random.Random(f"{seed}/{index}")
    game_id = UUID(int=rng.getrandbits(128), version=4)
    game_type, seats, level, _ = rng.choices(MIX, weights=[m[3] for m in MIX])[0]
    player = players[rng.randrange(len(players))]
    creator = "address-" + hashlib.sha256(player.bytes).hexdigest()[:16]
    stop_after = rng.randrange(0, 16) if active else None
    open_seat = active and rng.random() < 0.1
    return GameSpec(
        index, game_id, game_type, seats, level, player, creator, start, stop_after, open_seat
    )


@dataclass
class OutboxRow:
    """An outbox row: written at a commit, done when a worker did it."""

    version: int
    kind: str
    urgent: bool
    created_at: datetime
    done_at: datetime | None = None


@dataclass
class HeldSeat:
    """A player's seat (player_seats): who holds it, and the version of their last move."""

    player: UUID
    last_acted_version: int = 0


@dataclass
class PlayedGame:
    """What the service's database holds for one game once it has been played this far."""

    spec: GameSpec
    events: list[StoredEvent] = field(default_factory=list)
    table: Table | None = None
    snapshot: tuple[int, dict[str, Any]] | None = None
    tokens: dict[int, str] = field(default_factory=dict)
    invites: dict[int, str] = field(default_factory=dict)
    player_seats: dict[int, HeldSeat] = field(default_factory=dict)
    notices: list[tuple[UUID, str, int, int, datetime]] = field(default_factory=list)
    work: dict[tuple[int, str], OutboxRow] = field(default_factory=dict)

    @property
    def head(self) -> StreamHead:
        if not self.events:
            return StreamHead(0, GENESIS, CURRENT_FORMAT)
        return StreamHead(self.events[-1].version, self.events[-1].hash, CURRENT_FORMAT)

    @property
    def status(self) -> str:
        return "waiting" if self.table is None else self.table.status

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.table is None else seats_to_act(self.table)


class RecordingUnitOfWork:
    """The unit of work of events/unit_of_work.py over one PlayedGame, at the recorder's clock.
    No rollback: a command that fails fails the whole game (a bug to see, not to hide)."""

    def __init__(self, game: PlayedGame, clock: Clock) -> None:
        self.game = game
        self.clock = clock

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *raised: object) -> None:
        pass

    def claim(self, scope: str, key_id: str, request_hash: str) -> Claim:
        raise NotImplementedError("history games send no Idempotency-Key")

    def complete(self, scope: str, key_id: str, record: dict) -> None:
        raise NotImplementedError("history games send no Idempotency-Key")

    def create_stream(self, game_id: UUID, game_type: str, creator: str = "") -> StreamHead:
        return self.game.head

    def lock(self, game_id: UUID) -> StreamHead:
        return self.game.head

    def lock_as(self, game_id: UUID, token: str) -> tuple[StreamHead, int | None]:
        seats = [seat for seat, held in self.game.tokens.items() if held == token]
        return self.game.head, seats[0] if seats else None

    def load(self, game_id: UUID, head: StreamHead) -> Table:
        assert self.game.table is not None
        return self.game.table

    def append(
        self,
        game_id: UUID,
        head: StreamHead,
        events: Sequence[Event],
        table: Table,
        acted: int | None = None,
    ) -> PendingAppend:
        stored = chained_events(game_id, head, new_events(events), self.clock.now)
        self.game.events.extend(stored)
        self.game.table = table
        version = stored[-1].version
        if Repository.snapshot_due(head.version, version, table):
            self.game.snapshot = (version, {"code": CODE_VERSION, "table": table_to_json(table)})
        if acted is not None and acted in self.game.player_seats:
            self.game.player_seats[acted].last_acted_version = version
        appended = PendingAppend(stored)
        appended.mark_sent(stored)  # recorded at once: this unit never rolls back
        return appended

    def add_work(
        self, game_id: UUID, version: int, work: Sequence[Work], urgent: bool = False
    ) -> None:
        for item in work:
            key = (version, encode(item))
            self.game.work.setdefault(key, OutboxRow(version, key[1], urgent, self.clock.now))

    def work_done(self, game_id: UUID, version: int, work: Work) -> None:
        row = self.game.work.get((version, encode(work)))
        if row is not None and row.done_at is None:
            row.done_at = self.clock.now

    def save_tokens(self, game_id: UUID, tokens: Mapping[int, str]) -> None:
        self.game.tokens.update(tokens)

    def revoke_token(self, game_id: UUID, seat: int) -> None:
        self.game.tokens.pop(seat, None)

    def wake_streams(self, game_id: UUID) -> None:
        pass

    def seat_players(
        self, game_id: UUID, seated: Mapping[int, str], unseated: Sequence[int]
    ) -> None:
        for seat in unseated:
            self.game.player_seats.pop(seat, None)
        for seat, player in seated.items():
            self.game.player_seats[seat] = HeldSeat(UUID(player))

    def tell_players(
        self, game_id: UUID, version: int, notices: Sequence[tuple[str, str, int]]
    ) -> None:
        for player, kind, seat in notices:
            self.game.notices.append((UUID(player), kind, version, seat, self.clock.now))

    def save_invites(self, game_id: UUID, invites: Mapping[int, str]) -> None:
        self.game.invites.update(invites)

    def set_timers(
        self, game_id: UUID, waiting: dict[int, int], seconds: int, new: Sequence[StoredEvent]
    ) -> dict[int, datetime]:
        raise NotImplementedError("history tables have no turn timers")

    def deadline(self, game_id: UUID, seat: int, since: int) -> datetime | None:
        return None

    def invite_matches(self, game_id: UUID, seat: int, invite: str) -> bool:
        return self.game.invites.get(seat) == invite

    def save_seed_commitment(
        self, commitment_id: UUID, server_seed: str, lasts: timedelta
    ) -> datetime:
        raise NotImplementedError("history tables draw their seeds at creation")

    def take_seed_commitment(self, commitment_id: UUID) -> str | None:
        return None


class Clock:
    """The moment of the next unit of work: games are played in simulated time."""

    def __init__(self, start: datetime, rng: random.Random) -> None:
        self.now = start
        self._rng = rng

    def wait(self, span: tuple[float, float]) -> None:
        self.now += timedelta(seconds=self._rng.uniform(*span))


class NeverEnded(RuntimeError):
    """A history game that waits for nothing before it is over (a bug in the bench or rules)."""


MAX_DECISIONS = 20_000


def play(spec: GameSpec, bot_secret: bytes, sealing_secret: bytes) -> PlayedGame:
    """Plays `spec` through the command service: to the end, or (an active table) up to the
    player's turn after `stop_after` decisions, or (an open seat) just created."""
    rng = random.Random(f"play/{spec.game_id}")
    game = PlayedGame(spec)
    clock = Clock(spec.start, rng)

    def unit() -> RecordingUnitOfWork:
        return RecordingUnitOfWork(game, clock)

    committer = Committer(deal_rng=rng)
    commands = Commands(unit, Sealer(sealing_secret), committer, lambda: random_hex(rng, 64))
    automation = Automation(unit, committer, bot_secret=bot_secret)
    game_type = GAME_TYPES[spec.game_type]
    seats = [tables.SeatInfo(tables.HUMAN, f"player {spec.index}", player=str(spec.player))]
    seats += [tables.SeatInfo(tables.BOT, level=spec.level)] * (spec.seats - 1)
    if spec.open_seat:
        seats[1] = tables.SeatInfo(tables.OPEN)
    commands.create(
        spec.game_id, game_type, tables.CreateTable(tuple(seats), {}), creator=spec.creator
    )
    if spec.open_seat:
        return game
    for decisions in range(MAX_DECISIONS):
        table = game.table
        assert table is not None
        if table.status == "finished":
            return game
        pending = [(row.version, row.kind) for row in game.work.values() if row.done_at is None]
        if pending:
            clock.wait(BOT_THINKS)
            for version, kind in pending:
                automation.run_work(spec.game_id, version, decode(kind))
        elif 0 in seats_to_act(table):
            if spec.stop_after is not None and decisions >= spec.stop_after:
                return game
            clock.wait(HUMAN_THINKS)
            action = game_type.bots[spec.level](view_table(table, 0), rng)
            commands.act(spec.game_id, 0, action)
        else:
            raise NeverEnded(f"{spec.game_type} game {spec.index} waits for nothing")
    raise NeverEnded(f"{spec.game_type} game {spec.index} not over in {MAX_DECISIONS} decisions")
