"""The table around any game: seats, joining, options and fixed decks, then the game itself.

A table is a Decider too. Table events (TableCreated, SeatJoined, FixedDecksChosen) are its own;
every other event belongs to the game and is folded by the game's `evolve`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.cards import Card
from domain.decider import (
    Command,
    Deal,
    DomainError,
    Event,
    GameFinished,
    GameNotStarted,
    InvalidSetup,
    SeatTaken,
)
from domain.game_type import GameType

HUMAN, BOT, OPEN = "human", "bot", "open"


class NotFound(DomainError):
    code = "not-found"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    kind: str
    name: str | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class CreateTable(Command):
    seats: tuple[SeatInfo, ...]
    options: dict
    fixed_decks: tuple[tuple[Card, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class JoinSeat(Command):
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class TableCreated(Event):
    game_type: str
    seats: tuple[SeatInfo, ...]
    options: dict


@dataclass(frozen=True, slots=True)
class FixedDecksChosen(Event):
    """Test decks (GAMES_ALLOW_FIXED_DECK): secret from everyone until the game ends."""

    decks: tuple[tuple[Card, ...], ...]

    def visible_to(self) -> tuple[int, ...] | None:
        return ()

    def redacted(self) -> dict:
        return {"decks": len(self.decks)}


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    seat: int
    name: str


TABLE_EVENTS: dict[str, type[Event]] = {
    cls.__name__: cls for cls in (TableCreated, FixedDecksChosen, SeatJoined)
}


@dataclass(frozen=True, slots=True)
class Table:
    game_type: GameType
    seats: tuple[SeatInfo, ...]
    options: Mapping[str, Any]
    game: Any
    fixed_decks: tuple[tuple[Card, ...], ...] = ()
    deals_made: int = 0

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
    unknown = sorted(set(command.options) - set(game_type.options))
    if unknown:
        raise InvalidSetup(f"unknown option(s) for {game_type.id}: {', '.join(unknown)}")
    options = {**game_type.options, **command.options}
    game_type.check_options(players, options)
    _check_fixed_decks(game_type, players, options, command.fixed_decks)
    events: list[Event] = [TableCreated(game_type.id, command.seats, options)]
    if command.fixed_decks:
        events.append(FixedDecksChosen(command.fixed_decks))
    return events


def _check_fixed_decks(
    game_type: GameType, players: int, options: dict, decks: tuple[tuple[Card, ...], ...]
) -> None:
    full = game_type.cards_to_deal(game_type.new_game(players, options)) or ()
    for deck in decks:
        if len(deck) != len(full) or set(deck) != set(full):
            raise InvalidSetup(
                f"a fixed deck must hold each of the game's {len(full)} cards exactly once"
            )


def decide(table: Table, command: Command) -> list[Event]:
    if isinstance(command, JoinSeat):
        return _decide_join(table, command)
    if isinstance(command, Deal):
        return table.game_type.decide(table.game, command)
    if not table.started:
        raise GameNotStarted("the game has not started: seats are still open")
    if table.game_type.is_terminal(table.game):
        raise GameFinished("the game is finished")
    return table.game_type.decide(table.game, command)


def _decide_join(table: Table, command: JoinSeat) -> list[Event]:
    if not 0 <= command.seat < len(table.seats):
        raise NotFound(f"no seat {command.seat} at this table")
    if table.seats[command.seat].kind != OPEN:
        raise SeatTaken(f"seat {command.seat} is taken")
    return [SeatJoined(command.seat, command.name)]


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
    game = game_type.new_game(len(event.seats), event.options)
    return Table(game_type, event.seats, event.options, game)


def evolve(table: Table, event: Event) -> Table:
    if isinstance(event, FixedDecksChosen):
        return replace(table, fixed_decks=event.decks)
    if isinstance(event, SeatJoined):
        seats = list(table.seats)
        seats[event.seat] = SeatInfo(HUMAN, event.name)
        return replace(table, seats=tuple(seats))
    game = table.game_type.evolve(table.game, event)
    # Every game names its deal event DealCommitted; counting them picks the next fixed deck.
    deals = table.deals_made + (type(event).__name__ == "DealCommitted")
    return replace(table, game=game, deals_made=deals)
