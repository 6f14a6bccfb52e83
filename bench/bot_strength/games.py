"""The play loop of the pure-domain bot-strength benches: a table of bots at given levels played
to its end, every decision timed under its level; the options and the run they share."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bench.support.stats import Progress, percentile
from domain.games import GAME_TYPES
from domain.kit.budget import Iterations
from domain.kit.outcome import GameEnded
from domain.tables.selfplay import bot_table, steps
from domain.tables.table import Table

LEVELS = ("strong", "basic", "random")  # best first
J = TypeVar("J")
R = TypeVar("R")


@dataclass
class Played:
    table: Table  # as it ended
    ended: GameEnded | None
    seconds: dict[str, list[float]]  # level -> each of its decisions' wall time


def play(game: str, levels: Sequence[str], seed: str, iterations: int | None) -> Played:
    """One game of bots at `levels` (seat by seat), its generator seeded from `seed`;
    `iterations` K hands each decision Iterations(K) (searching bots only)."""
    budget = None if iterations is None else (lambda: Iterations(iterations))
    seconds: dict[str, list[float]] = defaultdict(list)
    table, _ = bot_table(GAME_TYPES[game], levels)
    ended: GameEnded | None = None
    decisions = steps(table, random.Random(seed), budget)
    while True:
        started = time.perf_counter()
        step = next(decisions, None)
        if step is None:
            return Played(table, ended, dict(seconds))
        if step.seat is not None:
            seconds[levels[step.seat]].append(time.perf_counter() - started)
        table = step.table
        ended = next((e for e in step.events if isinstance(e, GameEnded)), ended)


def decision_times(seconds: Iterable[dict[str, list[float]]]) -> dict[str, dict[str, float]]:
    """Per level: decisions, mean and p95 milliseconds per decision."""
    by_level: dict[str, list[float]] = defaultdict(list)
    for played in seconds:
        for level, times in played.items():
            by_level[level].extend(times)
    return {
        level: {
            "decisions": len(times),
            "mean_ms": round(1000 * sum(times) / len(times), 3),
            "p95_ms": round(1000 * percentile(times, 95), 3),
        }
        for level, times in sorted(by_level.items())
    }


# The settings both pure-domain benches take: the game types (all when empty), worker
# processes, the seed, and the search budget per decision (Iterations(K); None: the bots' own).
SETTINGS: dict[str, Any] = {"games_of": [], "processes": 1, "seed": 1, "iterations": None}


def run_jobs(name: str, play_one: Callable[[J], R], jobs: Sequence[J], processes: int) -> list[R]:
    """Every job played, in worker processes if more than one; a progress line meanwhile."""
    done: list[Any] = []
    with Progress(lambda t: f"{name}: {len(done)}/{len(jobs)} games in {t:.0f} s"):
        if processes <= 1:
            done.extend(play_one(job) for job in jobs)
        else:
            with multiprocessing.Pool(processes) as pool:
                done.extend(pool.imap_unordered(play_one, jobs, chunksize=2))
    return done
