"""Whole games played by bots in the pure domain: for simulations, property tests and audits.

The generator is handed in (the domain makes no randomness of its own): it shuffles the deals,
picks the random first leaders and drives the bots, so a seed reproduces a game exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain import table as tables
from domain.actions import command_from_action
from domain.cards import Card
from domain.decider import Automatic, Deal, Event
from domain.game_type import GameType, Rng
from domain.table_view import view_table

MAX_STEPS = 200_000  # far beyond any real game: a guard against a game that never ends


class NeverEnded(RuntimeError):
    """A game still not over after MAX_STEPS decisions (a rules bug)."""


@dataclass(frozen=True)
class Step:
    """One decision: who made it (None for a deal or automatic work), what it appended, and the
    table after it."""

    seat: int | None
    events: list[Event]
    table: tables.Table


def bot_table(
    game_type: GameType,
    levels: Sequence[str],
    options: Mapping[str, Any] | None = None,
    fixed_decks: tuple[tuple[Card, ...], ...] = (),
) -> tuple[tables.Table, list[Event]]:
    """A table of bots at the given levels, created but not dealt."""
    seats = tuple(tables.SeatInfo(tables.BOT, level=level) for level in levels)
    created, *rest = tables.decide_create(
        game_type, tables.CreateTable(seats, dict(options or {}), fixed_decks)
    )
    table = tables.create(game_type, created)
    for event in rest:
        table = tables.evolve(table, event)
    return table, [created, *rest]


def shuffled_deal(table: tables.Table, cards: tuple[Card, ...], rng: Rng) -> Deal:
    fixed = tables.next_fixed_deck(table)
    deck = tuple(fixed) if fixed is not None else tuple(rng.sample(cards, len(cards)))
    salt = f"{rng.randint(0, 2**128 - 1):032x}"
    return Deal(deck=deck, salt=salt, first_leader=rng.randint(0, len(table.seats) - 1))


def next_decision(table: tables.Table, rng: Rng) -> tuple[int | None, list[Event]]:
    """What happens next at a table of bots: a deal, automatic work, or one bot's action."""
    game_type = table.game_type
    if (cards := tables.pending_deal(table)) is not None:
        return None, tables.decide(table, shuffled_deal(table, cards, rng))
    if kind := game_type.automatic(table.game):
        return None, tables.decide(table, Automatic(kind))
    seat = rng.choice(game_type.to_act(table.game))
    view = view_table(table, seat)  # a bot decides from its own seat's view only
    action = game_type.bots[table.seats[seat].level](view, rng)
    return seat, tables.decide(table, command_from_action(game_type, seat, action))


def steps(table: tables.Table, rng: Rng) -> Iterator[Step]:
    """Every decision until the game is over."""
    for _ in range(MAX_STEPS):
        if table.status == "finished":
            return
        seat, events = next_decision(table, rng)
        for event in events:
            table = tables.evolve(table, event)
        yield Step(seat, events, table)
    raise NeverEnded(f"{table.game_type.id} not over after {MAX_STEPS} decisions")


def play_out(
    game_type: GameType,
    levels: Sequence[str],
    rng: Rng,
    options: Mapping[str, Any] | None = None,
    fixed_decks: tuple[tuple[Card, ...], ...] = (),
) -> tuple[tables.Table, list[Event]]:
    """A whole game of bots: the final table and every event, the table's own included."""
    table, events = bot_table(game_type, levels, options, fixed_decks)
    for step in steps(table, rng):
        table = step.table
        events.extend(step.events)
    return table, events
