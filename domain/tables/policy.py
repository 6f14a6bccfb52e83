"""What happens next at a table: the one place that says what a table waits for once its events
are committed. The handler, the workers and self-play all ask `due`; nothing else re-derives it.

    due(table) -> DealDue | AutomaticDue | BotTurnsDue | None

A deal is made at once, in the same decision (it needs no one); automatic work and bot turns are
done later, on the workers. A seeded table's deals are derived from its seeds (G6,
domain/tables/fair_deals.py); other randomness is handed in: a `SystemRandom` in production, a
seeded `Random` in tests and simulations, so a seed reproduces a whole game.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kit.budget import Budget
from domain.kit.cards import Card
from domain.kit.decider import Automatic, Deal, Event
from domain.kit.game_type import Rng
from domain.kit.templates import action_from_template
from domain.tables import table as tables
from domain.tables.actions import command_from_action
from domain.tables.fair_deals import seeded_deal
from domain.tables.view import view_table

SALT_BITS = 128


@dataclass(frozen=True, slots=True)
class DealDue:
    """The table is full and the game waits for a deal of these cards (unshuffled)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class AutomaticDue:
    """Work no seat does, e.g. round scoring."""

    kind: str


@dataclass(frozen=True, slots=True)
class BotTurnsDue:
    """Bot seats the game waits for (humans may be waited for beside them)."""

    seats: tuple[int, ...]


Due = DealDue | AutomaticDue | BotTurnsDue | None


def due(table: tables.Table) -> Due:
    if (cards := tables.pending_deal(table)) is not None:
        return DealDue(cards)
    if table.status != "active":
        return None
    if kind := table.game_type.automatic(table.game):
        return AutomaticDue(kind)
    bots = tuple(
        seat for seat in table.game_type.to_act(table.game) if table.seats[seat].kind == tables.BOT
    )
    return BotTurnsDue(bots) if bots else None


def deal(table: tables.Table, rng: Rng, game_id: str | None = None) -> Deal:
    """The deal the table waits for. A seeded table's is derived from its seeds and `game_id`
    (G6). Otherwise: its next fixed deck, or the cards shuffled by `rng` (G2); a salt for the
    published commitment and a random first leader (G4), both from `rng`."""
    cards = tables.pending_deal(table)
    if cards is None:
        raise ValueError("the table waits for no deal")
    if table.seeds is not None:
        if game_id is None:
            raise ValueError("a seeded table's deal is derived from its game id too")
        return seeded_deal(table, game_id)
    fixed = tables.next_fixed_deck(table)
    deck = tuple(fixed) if fixed is not None else tuple(rng.sample(cards, len(cards)))
    salt = f"{rng.randint(0, 2**SALT_BITS - 1):032x}"
    return Deal(deck=deck, salt=salt, first_leader=rng.randint(0, len(table.seats) - 1))


def with_deals(
    table: tables.Table, events: list[Event], rng: Rng, game_id: str | None = None
) -> tuple[tables.Table, list[Event]]:
    """Applies decided events, then deals for as long as the table waits for a deal."""
    for event in events:
        table = tables.evolve(table, event)
    while isinstance(due(table), DealDue):
        dealt = tables.decide(table, deal(table, rng, game_id))
        for event in dealt:
            table = tables.evolve(table, event)
        events = [*events, *dealt]
    return table, events


def automatic_work(table: tables.Table, kind: str) -> list[Event]:
    return tables.decide(table, Automatic(kind))


def timers(table: tables.Table) -> dict[int, int]:
    """The human seats a timed table waits for, each with the version it waits since."""
    if table.options.get("turn_seconds") is None or table.status != "active":
        return {}
    return {s: v for s, v in table.waiting if table.seats[s].kind == tables.HUMAN}


@dataclass(frozen=True)
class BotMove:
    """A bot's decided events; `failure` is why its own choice was replaced by the first legal
    action (a bot bug must never leave a game waiting forever), for the caller to log."""

    events: list[Event]
    failure: Exception | None = None


def bot_move(
    table: tables.Table,
    seat: int,
    rng: Rng,
    level: str | None = None,
    budget: Budget | None = None,
) -> BotMove:
    """The bot's move, decided from the seat's own view only (what the API would show it); a
    human seat timed out gets `level`'s move. A searching bot thinks within `budget`."""
    view = view_table(table, seat)
    bot = table.game_type.bots[level or table.seats[seat].level or tables.BASIC]
    try:
        action = bot(view, rng, budget)
        return BotMove(tables.decide(table, command_from_action(table.game_type, seat, action)))
    except Exception as error:  # noqa: BLE001 - any bot failure falls back, reported
        fallback = action_from_template(view["you"]["legal_actions"][0], rng)
        command = command_from_action(table.game_type, seat, fallback)
        return BotMove(tables.decide(table, command), failure=error)
