"""Concurrent games through the HTTP API (Trick & Snipers by default).

1. `games` games of `players` human seats played by `clients` threads (one keep-alive session
   each, or one per seat): actions/s and POST /games/{id}/actions latency, early (the first
   10 actions of each game) against late (the last 10, or with `late_version` V the actions
   within 10 versions of V).
2. The raw INSERT+COMMIT rate of the same Postgres with as many threads (bench/raw_append.py).
3. `bot_games` games of 1 human + 3 basic bots: the bots' reaction time from `recorded_at`."""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bench.raw_append import measure_raw_appends
from bench.support import server_procs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api, BenchError, Timed, play_bot_game, play_human_game
from bench.support.stats import Counter, Progress, in_threads, ms, ms_percentiles, percentile

EDGE = 10  # actions at each end of a game compared for the early/late ratio
MAX_ERRORS = 20
G = TypeVar("G")


def play_games(
    url: str,
    clients: int,
    count: int,
    play: Callable[[list[Api], int], G],
    render: Callable[[int, float], str],
    sessions: int = 1,
    game_type: str = "trick_and_snipers",
) -> tuple[list[G], int]:
    """`clients` threads, each with its own `sessions`, play games 0..count-1 between them;
    returns what each game gave (in the order they ended) and how many failed (too many end
    the run). `render(games done, elapsed)` is the progress line."""
    lock, numbers = threading.Lock(), iter(range(count))
    played: list[G] = []
    failures: list[Exception] = []

    def client() -> None:
        apis = [Api(url, game_type) for _ in range(sessions)]
        try:
            while (index := next_game()) is not None:
                try:
                    played.append(play(apis, index))
                except (BenchError, OSError) as error:
                    print(f"\ngame {index} failed: {error}", file=sys.stderr)
                    failures.append(error)
                    if len(failures) >= MAX_ERRORS:
                        raise SystemExit("too many failed games") from error
        finally:
            for api in apis:
                api.close()

    def next_game() -> int | None:
        with lock:
            return next(numbers, None)

    with Progress(lambda elapsed: render(len(played), elapsed)):
        in_threads(client, [()] * clients)
    return played, len(failures)


@dataclass
class HumanRun:
    games: list[tuple[list[Timed], list[float]]]  # per game: (version, POST latency), reads
    failed: int
    seconds: float
    actions: int
    cpu: dict[str, float]  # CPU seconds per process group during the run


def run_humans(s: Settings, url: str, games: int, label: str) -> HumanRun:
    actions = Counter()

    def play(apis: list[Api], index: int) -> tuple[list[Timed], list[float]]:
        rng = random.Random(f"{s['seed']}:{label}:{index}")
        return play_human_game(apis, rng, actions.add, s["policy"], s["players"])

    def render(done: int, elapsed: float) -> str:
        rate = actions.value / max(elapsed, 1e-9)
        done_text = f"games {done}/{games}  actions {actions.value}"
        return f"[{label}] {done_text}  {rate:.0f} actions/s  {elapsed:.0f} s"

    sessions = s["players"] if s["session_per_seat"] else 1
    cpu_before, started = server_procs.snapshot(), time.perf_counter()
    played, failed = play_games(url, s["clients"], games, play, render, sessions, s["game"])
    seconds = time.perf_counter() - started
    cpu = server_procs.usage(cpu_before, server_procs.snapshot())
    return HumanRun(played, failed, seconds, actions.value, cpu)


def human_figures(run: HumanRun, late_version: int | None = None) -> Figures:
    games = [latencies for latencies, _ in run.games]
    posts = [latency for game in games for _, latency in game]

    def late(game: list[Timed]) -> list[float]:
        if late_version is None:
            return [latency for _, latency in game[-EDGE:]]
        return [latency for version, latency in game if abs(version - late_version) <= EDGE]

    early_p50 = percentile([latency for game in games for _, latency in game[:EDGE]], 50)
    late_p50 = percentile([x for game in games for x in late(game)], 50)
    cpus = os.cpu_count() or 1
    return {
        "games": len(games),
        "failed_games": run.failed,
        "events_per_game_p50": percentile([game[-1][0] for game in games if game], 50),
        "actions": len(posts),
        "seconds": round(run.seconds, 2),
        "actions_per_s": round(len(posts) / run.seconds, 1) if run.seconds else 0.0,
        **ms_percentiles("post", posts, 50, 99),
        **ms_percentiles("get_state", [read for _, reads in run.games for read in reads], 50),
        "early_p50_ms": round(ms(early_p50), 2),
        "late_p50_ms": round(ms(late_p50), 2),
        "late_early_ratio": round(late_p50 / early_p50, 3) if early_p50 else None,
        "cpu_busy_pct": round(100 * run.cpu["total"] / (run.seconds * cpus), 1),
        "cpu_ms_per_action": {
            group: round(1000 * seconds / max(1, len(posts)), 2)
            for group, seconds in run.cpu.items()
        },  # fmt: skip
    }


def run_bots(s: Settings, url: str) -> Figures:
    def play(apis: list[Api], index: int) -> tuple[list[float], list[float]]:
        rng = random.Random(f"{s['seed']}:bots:{index}")
        return play_bot_game(apis[0], rng, s["poll"], lambda: None)

    def render(done: int, elapsed: float) -> str:
        return f"[bots] games {done}/{s['bot_games']}  {elapsed:.0f} s"

    played, failed = play_games(url, s["bot_clients"], s["bot_games"], play, render)
    return {
        "bot_games": len(played),
        "bot_failed_games": failed,
        **ms_percentiles("bot_after_human", [d for after, _ in played for d in after], 50, 95),
        **ms_percentiles("bot_any_move", [d for _, hops in played for d in hops], 95),
    }


def run(context: Context, s: Settings) -> Figures:
    warmup = s["clients"] if s["warmup"] is None else s["warmup"]
    if warmup:
        run_humans(s, context.url, warmup, "warm-up")
    humans = run_humans(s, context.url, s["games"], f"{s['players']} humans")
    figures: dict[str, Any] = human_figures(humans, s["late_version"])
    if context.database_url and s["raw_seconds"]:
        raw = measure_raw_appends(context.database_url, s["clients"], s["raw_seconds"])
        figures["raw_appends_per_s"] = round(raw.rate, 1)
        figures["api_vs_raw"] = round(figures["actions_per_s"] / raw.rate, 3)
    return figures | (run_bots(s, context.url) if s["bot_games"] else {})


BENCHMARK = Benchmark(
    name="actions",
    about="concurrent games through the HTTP API: actions/s, POST latency early and late, the "
    "raw append rate, the bots' reaction",
    run=run,
    needs_service=True,
    settings={"game": "trick_and_snipers", "policy": "first", "players": 4, "clients": 8,
        "games": (200, 8), "warmup": (None, 0), "late_version": None, "session_per_seat": False,
        "raw_seconds": (10.0, 1.0), "bot_games": (12, 1), "bot_clients": 4, "poll": 0.05,
        "seed": 1},
    goals=[
        Goal("late_early_ratio", "<=", 1.25, about="POST p50 of a game's last 10 actions / first "
            "10 <= 1.25 (or near `late_version` / the first 10)"),
        Goal("api_vs_raw", ">=", 0.40, about="API actions/s >= 40 % of raw INSERT+COMMIT/s on the "
            "same Postgres"),
        Goal("bot_after_human_p95_ms", "<=", 250, "ms", "a bot's move committed <= 250 ms (p95) "
            "after the human's"),
    ],
)  # fmt: skip
