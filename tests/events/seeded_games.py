"""Whole seeded games in the pure domain, as the service plays them: a server seed, a human seat
named at the creation with its own seed, a seat taken later by a human with another (or a bot),
bots for the rest; every seat's moves chosen by the random bot, humans' too, and every deal
derived from the seeds."""

from __future__ import annotations

import random
from dataclasses import replace

from domain.games import GAME_TYPES
from domain.kit.decider import Event
from domain.shared.seeds import PLAYER, ClientSeed
from domain.tables import policy
from domain.tables import table as tables
from events.seeds import seed_setup

MAX_DECISIONS = 20_000
CREATOR_SEED, JOINER_SEED = "ann's lucky seed", "bob chose this"
BOT = tables.SeatInfo(tables.BOT, level="random")


def seats(players: int, joiner: bool) -> tuple[tables.SeatInfo, ...]:
    """Seat 0 a human, seat 1 open for a joiner (with `joiner`), bots for the rest."""
    named = [tables.SeatInfo(tables.HUMAN, "ann")]
    if joiner:
        named.append(tables.SeatInfo(tables.OPEN))
    return (*named, *[BOT] * (players - len(named)))


def seeded_game(
    game_type_id: str, game_id: str, in_advance: bool, joiner: bool, seed: int
) -> tuple[tables.Table, list[Event]]:
    """The finished table and every event. `in_advance`: the server committed to its seed
    before the table was created (POST /seed-commitments), so seat 0's seed came after it."""
    rng = random.Random(seed)
    game_type = GAME_TYPES[game_type_id]
    chosen = seats(game_type.min_players, joiner)
    setup = replace(seed_setup(chosen, (CREATOR_SEED,), rng), committed_in_advance=in_advance)
    created, *rest = tables.decide_create(game_type, tables.CreateTable(chosen, {}, seeding=setup))
    assert isinstance(created, tables.TableCreated)
    table, events = policy.with_deals(tables.create(game_type, created), rest, rng, game_id)
    events = [created, *events]
    if joiner:
        join = tables.JoinSeat(1, "bob", ClientSeed(JOINER_SEED, PLAYER))
        table, dealt = policy.with_deals(table, tables.decide(table, join), rng, game_id)
        events += dealt
    return played_out(table, events, game_id, rng)


def played_out(
    table: tables.Table, events: list[Event], game_id: str, rng: random.Random
) -> tuple[tables.Table, list[Event]]:
    for _ in range(MAX_DECISIONS):
        if table.status == "finished":
            return table, events
        due = policy.due(table)
        if isinstance(due, policy.AutomaticDue):
            decided = policy.automatic_work(table, due.kind)
        else:
            seat = rng.choice(table.game_type.to_act(table.game))
            move = policy.bot_move(table, seat, rng, level="random")
            assert move.failure is None, move.failure
            decided = move.events
        table, decided = policy.with_deals(table, decided, rng, game_id)
        events = [*events, *decided]
    raise AssertionError(f"{table.game_type.id} not over after {MAX_DECISIONS} decisions")
