"""Whole bot games per second in the pure domain (no database, no HTTP), each bot seeing only
its own seat's view (the API's view_table), so the figure includes building views."""

from __future__ import annotations

import random
import time

from bench.support.benchmark import Benchmark, Context, Figures, Settings
from bench.support.stats import Progress
from domain.games import GAME_TYPES
from domain.tables.selfplay import bot_table, steps


def games_per_second(game: str, level: str, games: int, seed: int) -> Figures:
    game_type = GAME_TYPES[game]
    counts = list(range(game_type.min_players, game_type.max_players + 1))
    rng = random.Random(seed)
    done = {"games": 0, "decisions": 0, "events": 0}
    with Progress(lambda s: f"[simulate] {game} {level}: {done['games']}/{games} games"):
        started = time.perf_counter()
        while done["games"] < games:
            table, events = bot_table(game_type, [level] * counts[done["games"] % len(counts)])
            done["events"] += len(events)
            for step in steps(table, rng):
                done["decisions"] += 1
                done["events"] += len(step.events)
            done["games"] += 1
        seconds = time.perf_counter() - started
    return {f"{game}_{level}_{k}_per_s": round(v / seconds, 1) for k, v in done.items()}


def run(context: Context, s: Settings) -> Figures:
    figures: Figures = {}
    for game in s["games_of"] or sorted(GAME_TYPES):
        for level in s["bots"]:
            if level in GAME_TYPES[game].bot_levels:
                figures |= games_per_second(game, level, s["games"], s["seed"])
    return figures


BENCHMARK = Benchmark(
    name="simulate",
    about="whole games of bots in the pure domain, games/s per game and level (no goal)",
    run=run,
    settings={"games": (500, 3), "games_of": [], "bots": ["random", "basic"], "seed": 1},
)  # fmt: skip
