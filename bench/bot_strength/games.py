"""The play loop of the pure-domain bot-strength benches: a table of bots at given levels played
to its end, every decision timed under its level; the jobs, settings and run they share."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bench.support.benchmark import Settings
from bench.support.stats import Progress, percentile
from domain.games import GAME_TYPES
from domain.kit.budget import Iterations
from domain.kit.outcome import GameEnded
from domain.tables.selfplay import bot_table, steps

LEVELS = ("strong", "basic", "random")  # best first
# The settings both pure-domain benches take: the game types (all when empty), worker
# processes, the seed, and the search budget per decision (Iterations(K); None: the bots' own).
SETTINGS: dict[str, Any] = {"games_of": [], "processes": 1, "seed": 1, "iterations": None}
K = TypeVar("K", str, tuple[str, str])
R = TypeVar("R")


@dataclass(frozen=True)
class Job:
    """One game to play: its type, the levels it matches (a pairing, a lineup), its number among
    the games of those levels, the run's seed and the search budget."""

    game: str
    levels: tuple[str, ...]
    number: int
    seed: int
    iterations: int | None = None


def play(job: Job, seats: Sequence[str], label: str) -> tuple[GameEnded, dict[str, list[float]]]:
    """The job's game with bots at `seats` (seat by seat), its generator seeded from the seed,
    the game, `label` and the number (the same figures whatever the processes): how it ended,
    and each level's decisions' wall times."""
    iterations = job.iterations
    budget = None if iterations is None else (lambda: Iterations(iterations))
    seconds: dict[str, list[float]] = defaultdict(list)
    table, _ = bot_table(GAME_TYPES[job.game], seats)
    ended: GameEnded | None = None
    decisions = steps(table, random.Random(f"{job.seed}/{job.game}/{label}/{job.number}"), budget)
    while True:
        started = time.perf_counter()
        step = next(decisions, None)
        if step is None:
            break
        if step.seat is not None:
            seconds[seats[step.seat]].append(time.perf_counter() - started)
        ended = next((e for e in step.events if isinstance(e, GameEnded)), ended)
    if ended is None:
        raise RuntimeError(f"{job.game} game {job.number} ended without GameEnded")
    return ended, dict(seconds)


def jobs_of(s: Settings, game: str, levels: tuple[str, ...]) -> list[Job]:
    return [Job(game, levels, number, s["seed"], s["iterations"]) for number in range(s["games"])]


def run_jobs(
    name: str, play_one: Callable[[Job], R], jobs: Sequence[Job], processes: int
) -> list[R]:
    """Every job played, in worker processes if more than one; a progress line meanwhile."""
    done: list[R] = []
    with Progress(lambda t: f"{name}: {len(done)}/{len(jobs)} games in {t:.0f} s"):
        if processes <= 1:
            done.extend(play_one(job) for job in jobs)
        else:
            with multiprocessing.Pool(processes) as pool:
                done.extend(pool.imap_unordered(play_one, jobs, chunksize=2))
    return done


def grouped(records: Iterable[R], key: Callable[[R], K]) -> list[tuple[K, list[R]]]:
    """The records by key, in the keys' order."""
    groups: dict[K, list[R]] = defaultdict(list)
    for record in records:
        groups[key(record)].append(record)
    return sorted(groups.items())


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


def descending(values: Sequence[float | None]) -> bool:
    """Whether every value is there and each is above the next: the levels in their order."""
    return all(
        a is not None and b is not None and a > b for a, b in zip(values, values[1:], strict=False)
    )
