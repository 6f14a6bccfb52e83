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
from typing import Any

from bench.raw_append import measure_raw_appends
from bench.support import server_procs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import (
    Api,
    BenchError,
    BotResults,
    HumanResults,
    play_bot_game,
    play_human_game,
)
from bench.support.stats import Counter, Progress, in_threads, ms, ms_percentiles, percentile

EDGE = 10  # actions at each end of a game compared for the early/late ratio
MAX_ERRORS = 20


def run_clients(clients: int, games: int, play: Callable[[Api, int], None], url: str) -> None:
    """`clients` threads, each with its own session, play games 0..games-1 between them; a
    failed game is counted by `play`'s caller, and too many end the run."""
    lock, taken = threading.Lock(), iter(range(games))

    def client() -> None:
        api = Api(url)
        try:
            while (index := next_game()) is not None:
                play(api, index)
        finally:
            api.close()

    def next_game() -> int | None:
        with lock:
            return next(taken, None)

    in_threads(client, [()] * clients)


def guarded(
    play: Callable[[Api, int], None], on_error: Callable[[], int]
) -> Callable[[Api, int], None]:
    def wrapper(api: Api, index: int) -> None:
        try:
            play(api, index)
        except (BenchError, OSError) as error:
            print(f"\ngame {index} failed: {error}", file=sys.stderr)
            if on_error() >= MAX_ERRORS:
                raise SystemExit("too many failed games") from error

    return wrapper


@dataclass
class HumanRun:
    results: HumanResults
    seconds: float
    actions: int
    cpu: dict[str, float]  # CPU seconds per process group during the run


def run_humans(s: Settings, url: str, games: int, label: str) -> HumanRun:
    results, actions, local = HumanResults(), Counter(), threading.local()

    def play(api: Api, index: int) -> None:
        rng = random.Random(f"{s['seed']}:{label}:{index}")
        if not hasattr(local, "apis"):  # a client thread's sessions: one, or one per seat
            api.game_type = s["game"]
            extra = range(s["players"] - 1) if s["session_per_seat"] else range(0)
            local.apis = [api, *(Api(url, s["game"]) for _ in extra)]
        results.add_game(*play_human_game(local.apis, rng, actions.add, s["policy"], s["players"]))

    def on_error() -> int:
        results.add_error()
        return results.errors

    def render(elapsed: float) -> str:
        rate = actions.value / max(elapsed, 1e-9)
        done = f"games {len(results.games)}/{games}  actions {actions.value}"
        return f"[{label}] {done}  {rate:.0f} actions/s  {elapsed:.0f} s"

    cpu_before, started = server_procs.snapshot(), time.perf_counter()
    with Progress(render):
        run_clients(s["clients"], games, guarded(play, on_error), url)
    seconds = time.perf_counter() - started
    cpu = server_procs.usage(cpu_before, server_procs.snapshot())
    return HumanRun(results, seconds, actions.value, cpu)


def human_figures(run: HumanRun, late_version: int | None = None) -> Figures:
    games = run.results.games
    posts = [latency for game in games for _, latency in game]

    def late(game: list[tuple[int, float]]) -> list[float]:
        if late_version is None:
            return [latency for _, latency in game[-EDGE:]]
        return [latency for version, latency in game if abs(version - late_version) <= EDGE]

    early_p50 = percentile([latency for game in games for _, latency in game[:EDGE]], 50)
    late_p50 = percentile([x for game in games for x in late(game)], 50)
    cpus = os.cpu_count() or 1
    return {
        "games": len(games),
        "failed_games": run.results.errors,
        "events_per_game_p50": percentile([game[-1][0] for game in games if game], 50),
        "actions": len(posts),
        "seconds": round(run.seconds, 2),
        "actions_per_s": round(len(posts) / run.seconds, 1) if run.seconds else 0.0,
        **ms_percentiles("post", posts, 50, 99),
        **ms_percentiles("get_state", run.results.state_reads, 50),
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
    results, actions = BotResults(), Counter()

    def play(api: Api, index: int) -> None:
        rng = random.Random(f"{s['seed']}:bots:{index}")
        results.add_game(*play_bot_game(api, rng, s["poll"], actions.add))

    def on_error() -> int:
        results.add_error()
        return results.errors

    with Progress(lambda t: f"[bots] games {results.games}/{s['bot_games']}  {t:.0f} s"):
        run_clients(s["bot_clients"], s["bot_games"], guarded(play, on_error), url)
    return {
        "bot_games": results.games,
        "bot_failed_games": results.errors,
        **ms_percentiles("bot_after_human", results.after_human, 50, 95),
        **ms_percentiles("bot_any_move", results.any_hop, 95),
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
