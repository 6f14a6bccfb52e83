"""The table around any game: seats, joining and leaving, options, turn timers, fixed decks and
the seeds its deals are derived from, then the game itself.

A table is a Decider too. Table events (TableCreated, FixedDecksChosen, ServerSeedSealed,
SeatJoined, SeatLeft, TurnTimedOut) are its own; every other event belongs to the game and is
folded by the game's `evolve`. Leaving and timing out are domain/tables/presence.py's, seeds
domain/shared/seeds.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.kit.cards import Card
from domain.kit.codec import optional_field
from domain.kit.decider import (
    Command,
    Deal,
    DomainError,
    Event,
    GameFinished,
    GameNotStarted,
    IllegalAction,
    InvalidSetup,
    SeatTaken,
)
from domain.kit.game_state import GameState
from domain.kit.game_type import GameType
from domain.shared.dealing import DealCommitted
from domain.shared.seeds import (
    ClientSeed,
    Seeding,
    SeedSetup,
    ServerSeedSealed,
    TableSeeds,
    check_client_seed,
    joined,
    reopened,
    seeding_of,
    table_seeds,
)
from domain.tables.presence import (
    LEFT,
    TABLE_OPTIONS,
    LeaveSeat,
    SeatLeft,
    TimeOut,
    TurnTimedOut,
    check_table_options,
    decide_time_out,
    timeouts_after,
    waiting_after,
)
from domain.tables.rated_tables import check_rated_join, check_rated_option, check_rated_seats

HUMAN, BOT, OPEN = "human", "bot", "open"


class NotFound(DomainError):
    code = "not-found"


class ReservedSeat(DomainError):
    code = "forbidden"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    kind: str
    name: str | None = None
    level: str | None = None
    # The player (an id) whose seat this is: a human seat taken with a player key, or an open
    # seat kept for that player. Public: the events say who sat where. None: anonymous.
    player: str | None = optional_field()


@dataclass(frozen=True, slots=True)
class CreateTable(Command):
    seats: tuple[SeatInfo, ...]
    options: dict[str, Any]
    fixed_decks: tuple[tuple[Card, ...], ...] = ()
    seeding: SeedSetup | None = None  # None: a table whose deals are shuffled, not derived


@dataclass(frozen=True, slots=True)
class JoinSeat(Command):
    seat: int
    name: str
    client_seed: ClientSeed | None = None  # a seeded table needs one (the server may draw it)
    player: str | None = None  # the player taking the seat, if a player key asked


@dataclass(frozen=True, slots=True)
class TableCreated(Event):
    game_type: str
    seats: tuple[SeatInfo, ...]
    options: dict[str, Any]
    seeding: Seeding | None = optional_field()  # absent from tables created before seeds


@dataclass(frozen=True, slots=True)
class FixedDecksChosen(Event):
    """Test decks (GAMES_ALLOW_FIXED_DECK): secret from everyone until the game ends."""

    decks: tuple[tuple[Card, ...], ...]

    def visible_to(self) -> tuple[int, ...] | None:
        return ()

    def redacted(self) -> dict[str, Any]:
        return {"decks": len(self.decks)}


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    seat: int
    name: str
    client_seed: ClientSeed | None = optional_field()
    player: str | None = optional_field()


TABLE_EVENTS: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        TableCreated,
        FixedDecksChosen,
        ServerSeedSealed,
        SeatJoined,
        SeatLeft,
        TurnTimedOut,
    )
}
BASIC = "basic"  # the bot level that plays a seat its human left


@dataclass(frozen=True, slots=True)
class Table:
    game_type: GameType
    seats: tuple[SeatInfo, ...]
    options: Mapping[str, Any]
    game: GameState
    fixed_decks: tuple[tuple[Card, ...], ...] = ()
    deals_made: int = 0
    version: int = 1  # events folded, TableCreated included
    waiting: tuple[tuple[int, int], ...] = ()  # (seat, since version) for each seat to act
    timeouts: tuple[int, ...] = ()  # each seat's timeouts in a row (create() sets one per seat)
    timing_out: int | None = None  # the seat whose move is being made on a timeout
    left: tuple[int, ...] = ()  # seats whose human left (a bot plays them)
    seeds: TableSeeds | None = None  # None: a table from before seeded deals

    @property
    def is_full(self) -> bool:
        return all(seat.kind != OPEN for seat in self.seats)

    @property
    def status(self) -> str:
        if not self.is_full:
            return "waiting"
        return "finished" if self.game_type.is_terminal(self.game) else "active"

    @property
    def started(self) -> bool:
        return self.deals_made > 0


def event_class(game_type: GameType, name: str) -> type[Event]:
    return TABLE_EVENTS.get(name) or game_type.events[name]


def decide_create(game_type: GameType, command: CreateTable) -> list[Event]:
    players = len(command.seats)
    if not game_type.min_players <= players <= game_type.max_players:
        raise InvalidSetup(
            f"{game_type.name} takes {game_type.min_players} to {game_type.max_players} seats"
        )
    for seat in command.seats:
        if seat.kind not in (HUMAN, BOT, OPEN):
            raise InvalidSetup(f"a seat is {HUMAN}, {BOT} or {OPEN}, not {seat.kind!r}")
        if seat.kind == BOT and seat.level not in game_type.bot_levels:
            raise InvalidSetup(f"bot level must be one of {', '.join(game_type.bot_levels)}")
    _check_players(command.seats)
    unknown = sorted(set(command.options) - set(game_type.options) - set(TABLE_OPTIONS))
    if unknown:
        raise InvalidSetup(f"unknown option(s) for {game_type.id}: {', '.join(unknown)}")
    # The table's own options are recorded only when given, so older tables stay as they were.
    options = {**game_type.options, **command.options}
    game_type.check_options(players, game_options(options))
    check_table_options(options)
    check_rated_option(options)
    check_rated_seats(options, command.seats)
    _check_fixed_decks(game_type, players, game_options(options), command.fixed_decks)
    seeding = _seeding(command)
    events: list[Event] = [TableCreated(game_type.id, command.seats, options, seeding=seeding)]
    if command.fixed_decks:
        events.append(FixedDecksChosen(command.fixed_decks))
    if command.seeding is not None:
        events.append(ServerSeedSealed(command.seeding.server_seed))
    return events


def _check_players(seats: tuple[SeatInfo, ...]) -> None:
    """A player sits at (or is kept) one seat of a table at most, and only a human or an open
    seat is a player's."""
    players = [seat.player for seat in seats if seat.player is not None]
    if any(seat.player is not None and seat.kind == BOT for seat in seats):
        raise InvalidSetup("a bot's seat is no player's")
    if len(players) != len(set(players)):
        raise InvalidSetup("a player has one seat at a table at most")


def _seeding(command: CreateTable) -> Seeding | None:
    if command.seeding is None:
        return None
    return seeding_of(command.seeding, tuple(seat.kind == HUMAN for seat in command.seats))


def _check_fixed_decks(
    game_type: GameType, players: int, options: dict[str, Any], decks: tuple[tuple[Card, ...], ...]
) -> None:
    full = game_type.cards_to_deal(game_type.new_game(players, options)) or ()
    for deck in decks:
        if len(deck) != len(full) or set(deck) != set(full):
            raise InvalidSetup(
                f"a fixed deck must hold each of the game's {len(full)} cards exactly once"
            )


def game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in options.items() if key not in TABLE_OPTIONS}


def decide(table: Table, command: Command) -> list[Event]:
    if isinstance(command, JoinSeat):
        return _decide_join(table, command)
    if isinstance(command, Deal):
        return table.game_type.decide(table.game, command)
    if isinstance(command, LeaveSeat):
        return _decide_leave(table, command)
    if not table.started:
        raise GameNotStarted("the game has not started: seats are still open")
    if table.game_type.is_terminal(table.game):
        raise GameFinished("the game is finished")
    if isinstance(command, TimeOut):
        return _decide_time_out(table, command)
    return table.game_type.decide(table.game, command)


def _decide_leave(table: Table, command: LeaveSeat) -> list[Event]:
    if not 0 <= command.seat < len(table.seats):
        raise NotFound(f"no seat {command.seat} at this table")
    if table.seats[command.seat].kind != HUMAN:
        raise IllegalAction(f"seat {command.seat} has no player to leave")
    if table.status == "finished":
        raise GameFinished("the game is finished")
    return [SeatLeft(command.seat, LEFT)]


def _decide_time_out(table: Table, command: TimeOut) -> list[Event]:
    if not 0 <= command.seat < len(table.seats) or table.seats[command.seat].kind != HUMAN:
        raise IllegalAction(f"seat {command.seat} has no player to time out")
    return decide_time_out(table.options, dict(table.waiting), table.timeouts, command)


def _decide_join(table: Table, command: JoinSeat) -> list[Event]:
    if not 0 <= command.seat < len(table.seats):
        raise NotFound(f"no seat {command.seat} at this table")
    if table.seats[command.seat].kind != OPEN:
        raise SeatTaken(f"seat {command.seat} is taken")
    kept_for = table.seats[command.seat].player
    if kept_for is not None and command.player != kept_for:
        raise ReservedSeat(f"seat {command.seat} is kept for another player")
    check_rated_join(table.options, command.player)
    if command.player is not None and seat_of_player(table, command.player) is not None:
        raise SeatTaken("this player has a seat at this table already")
    if table.seeds is None and command.client_seed is not None:
        raise InvalidSetup("this table was created before client seeds: it takes none")
    if table.seeds is not None and command.client_seed is None:
        raise InvalidSetup("a seat taken at this table brings a client seed")
    check_client_seed(command.client_seed)
    joined_by = SeatJoined(
        command.seat, command.name, client_seed=command.client_seed, player=command.player
    )
    return [joined_by]


def seats_to_act(table: Table) -> tuple[int, ...]:
    """The seats whose move the table waits for now (none before the deal or after the end)."""
    if table.status != "active" or not table.started:
        return ()
    return tuple(table.game_type.to_act(table.game))


def seat_of_player(table: Table, player: str) -> int | None:
    """The human seat the player sits at, if any (a seat kept open for it is not one)."""
    for index, seat in enumerate(table.seats):
        if seat.kind == HUMAN and seat.player == player:
            return index
    return None


def pending_deal(table: Table) -> tuple[Card, ...] | None:
    """The cards to shuffle when the table is full and the game waits for a deal."""
    if not table.is_full:
        return None
    return table.game_type.cards_to_deal(table.game)


def next_fixed_deck(table: Table) -> tuple[Card, ...] | None:
    """Fixed decks are used in turn, one per deal; once used up, deals are shuffled afresh."""
    if table.deals_made < len(table.fixed_decks):
        return table.fixed_decks[table.deals_made]
    return None


def create(game_type: GameType, event: TableCreated) -> Table:
    game = game_type.new_game(len(event.seats), game_options(event.options))
    players = len(event.seats)
    seeds = None if event.seeding is None else table_seeds(event.seeding)
    return Table(game_type, event.seats, event.options, game, timeouts=(0,) * players, seeds=seeds)


def evolve(table: Table, event: Event) -> Table:
    table = replace(table, version=table.version + 1)
    if isinstance(event, FixedDecksChosen):
        return replace(table, fixed_decks=event.decks)
    if isinstance(event, ServerSeedSealed):
        seeds = table.seeds and replace(table.seeds, server_seed=event.seed)
        return replace(table, seeds=seeds)
    if isinstance(event, SeatJoined):
        seeds = table.seeds
        if seeds is not None and event.client_seed is not None:
            seeds = joined(seeds, event.seat, event.client_seed)
        info = SeatInfo(HUMAN, event.name, player=event.player)
        return replace(_seated(table, event.seat, info), seeds=seeds)
    if isinstance(event, SeatLeft):
        return _left(table, event)
    if isinstance(event, TurnTimedOut):
        counts = list(table.timeouts)
        counts[event.seat] = event.count
        return replace(table, timeouts=tuple(counts), timing_out=event.seat)
    game = table.game_type.evolve(table.game, event)
    # Every game deals with domain.shared.dealing; counting the deals picks the next fixed deck.
    deals = table.deals_made + isinstance(event, DealCommitted)
    return _turns(replace(table, game=game, deals_made=deals), event)


def _seated(table: Table, seat: int, info: SeatInfo) -> Table:
    seats = list(table.seats)
    seats[seat] = info
    return replace(table, seats=tuple(seats))


def _left(table: Table, event: SeatLeft) -> Table:
    """Before the deal the seat opens again; after it, the basic bot plays it."""
    if not table.started:
        seeds = table.seeds and reopened(table.seeds, event.seat)
        return replace(_seated(table, event.seat, SeatInfo(OPEN)), seeds=seeds)
    name = table.seats[event.seat].name
    table = _seated(table, event.seat, SeatInfo(BOT, name, BASIC))
    return replace(table, left=(*table.left, event.seat), timing_out=None)


def _turns(table: Table, event: Event) -> Table:
    """Who is waited for since when, and runs of timeouts, after a game event."""
    chose = event.actor() if type(event).__name__ in table.game_type.choices else None
    to_act = () if table.status != "active" else table.game_type.to_act(table.game)
    waiting = waiting_after(dict(table.waiting), to_act, table.version, chose)
    counts, timing_out = timeouts_after(table.timeouts, table.timing_out, chose)
    return replace(table, waiting=waiting, timeouts=counts, timing_out=timing_out)
