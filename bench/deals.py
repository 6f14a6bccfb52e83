"""What deriving a deal from seeds costs (docs/audit.md section 7), per deal, for every game and
table size: `derive_deal` alone and the seeded `Deal` of a full table as the service makes it,
next to the shuffle it replaces (the server's generator drawing a sample and a salt)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.stats import mean_seconds, ms
from domain.games import GAME_TYPES
from domain.shared.deal_derivation import derive_deal
from domain.shared.seeds import PLAYER, ClientSeed, SeedSetup
from domain.tables import table as tables
from domain.tables.fair_deals import seeded_deal

GAME_ID = "c0ffee00-0000-4000-8000-000000000001"


def full_table(game_id: str, players: int) -> tables.Table:
    """A table of humans, each with a seed, waiting for its first deal."""
    game_type = GAME_TYPES[game_id]
    seats = tuple(tables.SeatInfo(tables.HUMAN, f"p{s}") for s in range(players))
    seeds = tuple(ClientSeed(f"seed of seat {s}", PLAYER) for s in range(players))
    setup = SeedSetup(secrets.token_hex(32), True, seeds)
    created, sealed = tables.decide_create(game_type, tables.CreateTable(seats, {}, seeding=setup))
    assert isinstance(created, tables.TableCreated)
    return tables.evolve(tables.create(game_type, created), sealed)


def measure(game_id: str, players: int, count: int) -> dict[str, float]:
    """Per deal, in ms: `derive_deal` alone, the Deal of a full table as the service makes it,
    and what it replaces (a sample of the deck and a salt)."""
    table = full_table(game_id, players)
    cards = tables.pending_deal(table) or ()
    keys = [secrets.token_hex(32) for _ in range(count)]  # a fresh key every deal
    seeds = [f"seed of seat {seat}" for seat in range(players)]
    rng = random.SystemRandom()
    ways: dict[str, Callable[[int], object]] = {
        "derive_ms": lambda i: derive_deal(keys[i], seeds, GAME_ID, 1, cards),
        "seeded_deal_ms": lambda i: seeded_deal(table, GAME_ID),
        "shuffle_ms": lambda i: (rng.sample(cards, len(cards)), rng.randint(0, 2**128 - 1)),
    }
    return {"cards": len(cards)} | {
        name: ms(mean_seconds(way, count)) for name, way in ways.items()
    }


def run(context: Context, s: Settings) -> Figures:
    rows = {
        f"{game_id}_{players}": measure(game_id, players, s["deals"])
        for game_id, game_type in sorted(GAME_TYPES.items())
        for players in range(game_type.min_players, game_type.max_players + 1)
    }
    mean = sum(row["derive_ms"] for row in rows.values()) / len(rows)
    worst = max(max(row["derive_ms"], row["seeded_deal_ms"]) for row in rows.values())
    rounded = {name: {k: round(v, 4) for k, v in row.items()} for name, row in rows.items()}
    return {"mean_ms": round(mean, 4), "worst_ms": round(worst, 4), **rounded}


BENCHMARK = Benchmark(
    name="deals",
    about="deriving a deal from the seeds, every game and table size",
    run=run,
    settings={"deals": (5_000, 30)},
    goals=[Goal("worst_ms", "<", 1.0, "ms", "deriving a deal from the seeds < 1 ms (the worst)")],
)  # fmt: skip
