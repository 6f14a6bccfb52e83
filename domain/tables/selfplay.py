"""Whole games played by bots in the pure domain: for simulations, property tests and audits.

The generator is handed in (the domain makes no randomness of its own): it shuffles the deals,
picks the random first leaders and drives the bots, so a seed reproduces a game exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kit.budget import Budget
from domain.kit.cards import Card
from domain.kit.decider import Event
from domain.kit.game_type import GameType, Rng
from domain.tables import policy
from domain.tables import table as tables

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
    assert isinstance(created, tables.TableCreated)  # decide_create's first event
    table = tables.create(game_type, created)
    for event in rest:
        table = tables.evolve(table, event)
    return table, [created, *rest]


# Makes a fresh budget for each bot decision (a budget such as Iterations is used up by one).
BudgetFactory = Callable[[], Budget]


def next_decision(
    table: tables.Table, rng: Rng, budget: BudgetFactory | None = None
) -> tuple[int | None, list[Event]]:
    """What happens next at a table of bots (domain/tables/policy.py): a deal, automatic work, or
    one bot's action, chosen at random among the seats the game waits for. A searching bot thinks
    within `budget()` (None: its own default)."""
    next_up = policy.due(table)
    if isinstance(next_up, policy.DealDue):
        return None, tables.decide(table, policy.deal(table, rng))
    if isinstance(next_up, policy.AutomaticDue):
        return None, policy.automatic_work(table, next_up.kind)
    if next_up is None:
        raise NeverEnded(f"{table.game_type.id} waits for nothing, yet it is not over")
    seat = rng.choice(next_up.seats)
    move = policy.bot_move(table, seat, rng, budget=None if budget is None else budget())
    if move.failure is not None:  # a bot bug must fail simulations and tests loudly
        raise move.failure
    return seat, move.events


def steps(table: tables.Table, rng: Rng, budget: BudgetFactory | None = None) -> Iterator[Step]:
    """Every decision until the game is over."""
    for _ in range(MAX_STEPS):
        if table.status == "finished":
            return
        seat, events = next_decision(table, rng, budget)
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
    budget: BudgetFactory | None = None,
) -> tuple[tables.Table, list[Event]]:
    """A whole game of bots: the final table and every event, the table's own included."""
    table, events = bot_table(game_type, levels, options, fixed_decks)
    for step in steps(table, rng, budget):
        table = step.table
        events.extend(step.events)
    return table, events
