"""Cardroom action benchmark: concurrent games through the HTTP API (Trick & Snipers default).

    .venv/bin/python -m bench.actions --start --clients 8 --games 200
    .venv/bin/python -m bench.actions --url http://127.0.0.1:8000 --database-url postgresql://...
    .venv/bin/python -m bench.actions --start --game st_patrick --policy basic --late-version 500

Scenario 1: --games games of 4 human seats played by --clients threads (one keep-alive session
each): actions/s and POST /games/{id}/actions latency, early (first 10 actions of each game) vs
late (the last 10, or with --late-version V the actions within 10 versions of V).
Scenario 2: the raw INSERT+COMMIT rate of the same Postgres with as many threads.
Scenario 3: --bot-games games of 1 human + 3 basic bots: bot reaction time from `recorded_at`.
Ends with a summary (PASS/FAIL per goal); --json writes the figures to a file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import cpu
from bench.players import (
    Api,
    BenchError,
    BotResults,
    HumanResults,
    play_bot_game,
    play_human_game,
)
from bench.raw_append import RawResult, measure_raw_appends
from bench.service import Service, embedded_database_url, started_service
from bench.stats import Counter, Progress, ms, percentile

EDGE = 10  # actions at each end of a game compared for the early/late ratio
GOAL_LATE_EARLY = 1.25
GOAL_API_VS_RAW = 0.40
GOAL_BOT_P95_MS = 250.0
MAX_ERRORS = 20


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the running service")
    p.add_argument(
        "--start", action="store_true", help="start the service (python -m embedded.run)"
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL"),
        help="Postgres of the service, for the raw append rate ($DATABASE_URL)",
    )
    p.add_argument("--game", default="trick_and_snipers", help="the game type of scenario 1")
    p.add_argument(
        "--policy",
        default="first",
        help="how the 4 human clients choose: 'first' template, or a bot level such as 'basic'",
    )
    p.add_argument(
        "--late-version",
        type=int,
        default=None,
        help="compare the first actions with those near this version (default: the last ones)",
    )
    p.add_argument("--players", type=int, default=4, help="human seats per game of scenario 1")
    p.add_argument("--clients", type=int, default=8, help="concurrent clients (and DB threads)")
    p.add_argument("--games", type=int, default=200, help="4-human games to play")
    p.add_argument(
        "--warmup",
        type=int,
        default=None,
        help="games played first and not counted (default: one per client)",
    )
    p.add_argument(
        "--session-per-seat",
        action="store_true",
        help="one keep-alive session per seat (a game's requests reach several API processes)",
    )
    p.add_argument("--raw-seconds", type=float, default=10.0, help="length of the raw append run")
    p.add_argument("--bot-games", type=int, default=12, help="1 human + 3 bots games (0: skip)")
    p.add_argument("--bot-clients", type=int, default=4, help="concurrent bot games")
    p.add_argument("--poll", type=float, default=0.05, help="state poll interval in bot games (s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    p.add_argument("--json", dest="json_path", help="also write the figures to this file")
    return p.parse_args(argv)


# --- running clients ---------------------------------------------------------------------------


def run_clients(clients: int, games: int, play: Callable[[Api, int], None], url: str) -> None:
    """`clients` threads, each with its own session, play games 0..games-1 between them."""
    lock = threading.Lock()
    next_game = [0]

    def take() -> int | None:
        with lock:
            if next_game[0] >= games:
                return None
            next_game[0] += 1
            return next_game[0] - 1

    def client() -> None:
        api = Api(url)
        try:
            while (index := take()) is not None:
                play(api, index)
        finally:
            api.close()

    threads = [threading.Thread(target=client, name=f"client-{i}") for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def guarded(play: Callable[[Api, int], None], on_error: Callable[[], int]):
    """Counts a failed game instead of killing its client; aborts after MAX_ERRORS."""

    def wrapper(api: Api, index: int) -> None:
        try:
            play(api, index)
        except (BenchError, OSError) as error:
            errors = on_error()
            print(f"\ngame {index} failed: {error}", file=sys.stderr)
            if errors >= MAX_ERRORS:
                raise SystemExit("too many failed games") from error

    return wrapper


@dataclass
class HumanRun:
    results: HumanResults
    seconds: float
    actions: int
    cpu: dict[str, float]  # CPU seconds per process group during the run


def run_humans(args: argparse.Namespace, url: str, games: int, label: str) -> HumanRun:
    results = HumanResults()
    actions = Counter()

    local = threading.local()  # a client thread's extra sessions (--session-per-seat)

    def play(api: Api, index: int) -> None:
        rng = random.Random(f"{args.seed}:{label}:{index}")
        if not hasattr(local, "apis"):
            extra = (
                [Api(url, args.game) for _ in range(args.players - 1)]
                if args.session_per_seat
                else []
            )
            api.game_type = args.game
            local.apis = [api, *extra]
        results.add_game(*play_human_game(local.apis, rng, actions.add, args.policy, args.players))

    def on_error() -> int:
        results.add_error()
        return results.errors

    def render(elapsed: float) -> str:
        rate = actions.value / elapsed if elapsed else 0.0
        return (
            f"[{label}] games {len(results.games)}/{games}  actions {actions.value}"
            f"  {rate:.0f} actions/s  {elapsed:.0f} s"
        )

    cpu_before = cpu.snapshot()
    started = time.perf_counter()
    with Progress(render):
        run_clients(args.clients, games, guarded(play, on_error), url)
    seconds = time.perf_counter() - started
    return HumanRun(results, seconds, actions.value, cpu.usage(cpu_before, cpu.snapshot()))


def run_bots(args: argparse.Namespace, url: str) -> BotResults:
    results = BotResults()
    actions = Counter()

    def play(api: Api, index: int) -> None:
        rng = random.Random(f"{args.seed}:bots:{index}")
        results.add_game(*play_bot_game(api, rng, args.poll, actions.add))

    def on_error() -> int:
        results.add_error()
        return results.errors

    def render(elapsed: float) -> str:
        p95 = ms(percentile(results.after_human, 95))
        return (
            f"[bots] games {results.games}/{args.bot_games}  human actions {actions.value}"
            f"  samples {len(results.after_human)}  p95 {p95:.0f} ms  {elapsed:.0f} s"
        )

    with Progress(render):
        run_clients(args.bot_clients, args.bot_games, guarded(play, on_error), url)
    return results


# --- figures -----------------------------------------------------------------------------------


def late_actions(game: list[tuple[int, float]], late_version: int | None) -> list[float]:
    if late_version is None:
        return [latency for _, latency in game[-EDGE:]]
    return [latency for version, latency in game if abs(version - late_version) <= EDGE]


def human_figures(run: HumanRun, late_version: int | None = None) -> dict[str, Any]:
    games = run.results.games
    latencies = [latency for game in games for _, latency in game]
    early = [latency for game in games for _, latency in game[:EDGE]]
    late = [x for game in games for x in late_actions(game, late_version)]
    early_p50, late_p50 = percentile(early, 50), percentile(late, 50)
    return {
        "games": len(games),
        "events_per_game_p50": percentile([game[-1][0] for game in games if game], 50),
        "early_versions": _span([v for game in games for v, _ in game[:EDGE]]),
        "late_versions": late_version and f"{late_version - EDGE}-{late_version + EDGE}",
        "late_samples": len(late),
        "failed_games": run.results.errors,
        "actions": len(latencies),
        "seconds": round(run.seconds, 2),
        "actions_per_s": round(len(latencies) / run.seconds, 1) if run.seconds else 0.0,
        "post_p50_ms": round(ms(percentile(latencies, 50)), 2),
        "post_p99_ms": round(ms(percentile(latencies, 99)), 2),
        "post_max_ms": round(ms(max(latencies, default=float("nan"))), 2),
        "get_state_p50_ms": round(ms(percentile(run.results.state_reads, 50)), 2),
        "early_p50_ms": round(ms(early_p50), 2),
        "late_p50_ms": round(ms(late_p50), 2),
        "late_early_ratio": round(late_p50 / early_p50, 3) if early_p50 else None,
        "cpu_busy_pct": round(100 * run.cpu["total"] / (run.seconds * (os.cpu_count() or 1)), 1),
        "cpu_ms_per_action": {
            group: round(1000 * seconds / max(1, len(latencies)), 2)
            for group, seconds in run.cpu.items()
        },
    }


def _span(versions: list[int]) -> str:
    return f"{min(versions)}-{max(versions)}" if versions else "none"


def bot_figures(results: BotResults) -> dict[str, Any]:
    return {
        "games": results.games,
        "failed_games": results.errors,
        "samples": len(results.after_human),
        "after_human_p50_ms": round(ms(percentile(results.after_human, 50)), 1),
        "after_human_p95_ms": round(ms(percentile(results.after_human, 95)), 1),
        "any_move_samples": len(results.any_hop),
        "any_move_p50_ms": round(ms(percentile(results.any_hop, 50)), 1),
        "any_move_p95_ms": round(ms(percentile(results.any_hop, 95)), 1),
    }


def raw_figures(raw: RawResult | None, api_rate: float) -> dict[str, Any] | None:
    if raw is None:
        return None
    return {
        "threads": raw.threads,
        "seconds": round(raw.seconds, 2),
        "appends": raw.appends,
        "appends_per_s": round(raw.rate, 1),
        "api_vs_raw": round(api_rate / raw.rate, 3) if raw.rate else None,
    }


def goals(human: dict[str, Any], raw: dict[str, Any] | None, bots: dict[str, Any] | None):
    """(name, measured, target, passed or None when not measured)."""

    def check(value: float | None, ok: Callable[[float], bool]) -> bool | None:
        return None if value is None or value != value else ok(value)  # NaN: not measured

    ratio = human["late_early_ratio"]
    share = raw["api_vs_raw"] if raw else None
    p95 = bots["after_human_p95_ms"] if bots else None
    return [
        ("late/early p50", ratio, f"<= {GOAL_LATE_EARLY}", check(ratio, lambda v: v <= 1.25)),
        ("API / raw appends", share, f">= {GOAL_API_VS_RAW:.0%}", check(share, lambda v: v >= 0.4)),
        ("bot p95 (ms)", p95, f"<= {GOAL_BOT_P95_MS:.0f}", check(p95, lambda v: v <= 250)),
    ]


# --- output ------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def print_summary(report: dict[str, Any]) -> None:
    h, raw, bots = report["api"], report["raw_append"], report["bots"]
    before, after = report["machine_before"], report["machine_after"]
    lines = [
        "",
        "=" * 30 + " Cardroom action benchmark " + "=" * 30,
        f"machine      {before['cpus']} CPUs, {before['platform']}, Python {before['python']}",
        f"load avg     before {_load(before)}   after {_load(after)}",
        f"service      {report['service']}",
        f"clients      {report['clients']}"
        f"{' x 4 sessions (one per seat)' if report['session_per_seat'] else ''}"
        f" (bot games: {report['bot_clients']})",
        f"game         {report['game']}, {report['players']} humans (playing: {report['policy']}),"
        f" p50 {h['events_per_game_p50']} events per game",
        f"API          {h['games']} games, {h['actions']} actions in {h['seconds']} s:"
        f" {h['actions_per_s']} actions/s ({h['failed_games']} failed games)",
        f"POST action  p50 {h['post_p50_ms']} ms   p99 {h['post_p99_ms']} ms"
        f"   max {h['post_max_ms']} ms   (GET state p50 {h['get_state_p50_ms']} ms)",
        f"CPU          machine {h['cpu_busy_pct']}% busy; ms per action: "
        + ", ".join(f"{g} {v}" for g, v in h["cpu_ms_per_action"].items()),
        f"early/late   first {EDGE} (versions {h['early_versions']}) p50 {h['early_p50_ms']} ms"
        f"   late ({h['late_versions'] or f'last {EDGE}'}, n={h['late_samples']})"
        f" p50 {h['late_p50_ms']} ms   ratio {h['late_early_ratio']}",
    ]
    if raw:
        lines.append(
            f"raw appends  {raw['appends_per_s']}/s ({raw['threads']} threads, {raw['seconds']} s)"
            f"   API/raw {raw['api_vs_raw']:.1%}"
        )
    else:
        lines.append("raw appends  not measured (no --database-url / DATABASE_URL)")
    if bots:
        lines.append(
            f"bots         human->bot p50 {bots['after_human_p50_ms']} ms"
            f"   p95 {bots['after_human_p95_ms']} ms (n={bots['samples']});"
            f" any move->bot p50 {bots['any_move_p50_ms']} ms"
            f"   p95 {bots['any_move_p95_ms']} ms (n={bots['any_move_samples']})"
        )
    lines.append("-" * 87)
    for goal in report["goals"]:
        verdict = {True: "PASS", False: "FAIL", None: "n/a"}[goal["pass"]]
        lines.append(f"{goal['name']:<20} {goal['value']!s:<10} goal {goal['goal']:<8} {verdict}")
    lines.append("=" * 87)
    print("\n".join(lines), flush=True)


def _load(m: dict[str, Any]) -> str:
    return "/".join(f"{x:.2f}" for x in m["loadavg"])


# --- main --------------------------------------------------------------------------------------


def database_url_for(args: argparse.Namespace, service: Service | None) -> str | None:
    if args.database_url:
        return args.database_url
    if service is not None:
        return service.database_url
    data_dir = os.environ.get("DATA_DIR", ".data")  # the one `make run` uses by default
    return embedded_database_url(data_dir)


def bench(args: argparse.Namespace, service: Service | None) -> dict[str, Any]:
    url = service.url if service else args.url
    before = machine()
    warmup = args.clients if args.warmup is None else args.warmup
    if warmup:
        run_humans(args, url, warmup, "warm-up")
    human = human_figures(
        run_humans(args, url, args.games, f"{args.players} humans"), args.late_version
    )
    database_url = database_url_for(args, service)
    raw = None
    if database_url:
        print(f"[raw] {args.clients} threads, INSERT+COMMIT, {args.raw_seconds} s", file=sys.stderr)
        raw = measure_raw_appends(database_url, args.clients, args.raw_seconds)
    raw_fig = raw_figures(raw, human["actions_per_s"])
    bots = bot_figures(run_bots(args, url)) if args.bot_games else None
    return {
        "service": f"{url} ({'started by the bench' if service else 'already running'})",
        "game": args.game,
        "players": args.players,
        "policy": args.policy,
        "clients": args.clients,
        "session_per_seat": args.session_per_seat,
        "bot_clients": args.bot_clients,
        "machine_before": before,
        "machine_after": machine(),
        "api": human,
        "raw_append": raw_fig,
        "bots": bots,
        "goals": [
            {"name": n, "value": v, "goal": g, "pass": ok}
            for n, v, g, ok in goals(human, raw_fig, bots)
        ],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    context = started_service() if args.start else nullcontext(None)
    with context as service:
        if service:
            print(f"[bench] service at {service.url}, log {service.log_path}", file=sys.stderr)
        report = bench(args, service)
    print_summary(report)
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(report, indent=2) + "\n")
        print(f"figures written to {args.json_path}")
    return 0 if all(g["pass"] is not False for g in report["goals"]) else 1


if __name__ == "__main__":
    sys.exit(main())
