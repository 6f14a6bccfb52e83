"""Games for the history bench (bench/history.py), played by the service's own command code.

Every game is played for real, through `events.commands.Commands` and `events.automation`
(the code the API and the workers run), on the in-memory unit of work (events/memory.py);
bench/history_load.py then writes what it holds through the Postgres store's own write path.
Nothing is copied from another game: a seeded table's deals are derived from its game id
(docs/audit.md, section 7), so a game replayed under a new id would deal other cards and fail
its audit.

Seat 0 is a player's (a human seat whose moves are chosen as the bot of the game's level
would choose them, from that seat's view); the other seats are bots. A game is a pure
function of (seed, index) except for the nonces, which the store draws.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from domain.games import GAME_TYPES
from domain.tables import table as tables
from domain.tables.table import Table, seats_to_act
from domain.tables.view import view_table
from events.automation import Automation
from events.commands import Commands
from events.committing import Committer
from events.memory import MemoryStore
from events.outbox import Work
from events.records import StoredEvent
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


@dataclass(frozen=True)
class GameSpec:
    """Which game to play, who plays it, and how far to play it."""

    index: int
    game_id: UUID
    game_type: str
    seats: int
    level: str
    player: UUID  # holds seat 0
    creator: str
    stop_after: int | None = None  # None: to the end; else the player's first turn after so
    open_seat: bool = False  # seat 1 open: the table waits for someone to join (not dealt)


def spec_for(
    seed: int,
    index: int,
    players: Sequence[UUID],
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
    return GameSpec(index, game_id, game_type, seats, level, player, creator, stop_after, open_seat)


@dataclass
class PlayedGame:
    """One game as the unit of work left it: what the service's database holds for it."""

    spec: GameSpec
    store: MemoryStore

    @property
    def events(self) -> list[StoredEvent]:
        return self.store.state.events.get(self.spec.game_id, [])

    @property
    def table(self) -> Table | None:
        return self.store.state.tables.get(self.spec.game_id)

    @property
    def status(self) -> str:
        return "waiting" if self.table is None else self.table.status

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.table is None else seats_to_act(self.table)

    def by_seat(self, held: dict[tuple[UUID, int], str]) -> dict[int, str]:
        """A (game, seat)-keyed map of the store's as seat -> value (tokens, invites...)."""
        return {seat: value for (_, seat), value in sorted(held.items())}

    @property
    def notices(self) -> list[tuple[int, UUID, str, int]]:
        """(version, player, kind, seat) in the order the commits told them."""
        state = self.store.state
        return [(v, UUID(p), kind, seat) for p, kind, _, v, seat in state.notices]

    @property
    def work(self) -> list[tuple[int, Work, bool, bool]]:
        """(version, work, urgent, done) of each outbox row."""
        state = self.store.state
        return [(v, w, state.urgent[g, v, w], done) for (g, v, w), done in state.work.items()]


class NeverEnded(RuntimeError):
    """A history game that waits for nothing before it is over (a bug in the bench or rules)."""


MAX_DECISIONS = 20_000


def play(spec: GameSpec, bot_secret: bytes, sealing_secret: bytes) -> PlayedGame:
    """Plays `spec` through the command service: to the end, or (an active table) up to the
    player's turn after `stop_after` decisions, or (an open seat) just created."""
    rng = random.Random(f"play/{spec.game_id}")
    store = MemoryStore()
    game = PlayedGame(spec, store)
    committer = Committer(deal_rng=rng)
    commands = Commands(
        store.unit_of_work, Sealer(sealing_secret), committer, lambda: random_hex(rng, 64)
    )
    automation = Automation(store.unit_of_work, committer, bot_secret=bot_secret)
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
        pending = store.pending_work(spec.game_id)
        if pending:
            for version, work in pending:
                automation.run_work(spec.game_id, version, work)
        elif 0 in seats_to_act(table):
            if spec.stop_after is not None and decisions >= spec.stop_after:
                return game
            action = game_type.bots[spec.level](view_table(table, 0), rng)
            commands.act(spec.game_id, 0, action)
        else:
            raise NeverEnded(f"{spec.game_type} game {spec.index} waits for nothing")
    raise NeverEnded(f"{spec.game_type} game {spec.index} not over in {MAX_DECISIONS} decisions")
