"""Whole bot games per second in the pure domain (no database, no HTTP).

    .venv/bin/python -m bench.simulate --game st_patrick --bots basic --games 500
    .venv/bin/python -m bench.simulate --game saint_poker --players 2 3 4 5 --seconds 20

Every seat is a bot of the level --bots; player counts are used in turn. Each bot sees only
its own seat's view (the same view_table the API serves), so the figure includes building views.
Prints games/s, decisions/s and events/s; --json writes them to a file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from bench.stats import Progress
from domain.games import GAME_TYPES
from domain.tables.selfplay import bot_table, steps


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--game", required=True, choices=sorted(GAME_TYPES))
    p.add_argument("--bots", default="random", help="the bot level of every seat")
    p.add_argument("--players", type=int, nargs="*", help="player counts (default: all allowed)")
    p.add_argument("--games", type=int, default=200, help="stop after this many games")
    p.add_argument("--seconds", type=float, default=0, help="or after this long (0: no limit)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", type=Path, help="write the figures here")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    game_type = GAME_TYPES[args.game]
    if args.bots not in game_type.bot_levels:
        print(f"--bots must be one of {', '.join(game_type.bot_levels)}", file=sys.stderr)
        return 2
    counts = args.players or list(range(game_type.min_players, game_type.max_players + 1))
    rng = random.Random(args.seed)
    done = {"games": 0, "decisions": 0, "events": 0}
    elapsed = 0.0

    def render(seconds: float) -> str:
        rate = done["games"] / seconds if seconds else 0.0
        return f"{args.game} {args.bots}: {done['games']}/{args.games} games, {rate:.1f} games/s"

    started = time.perf_counter()
    with Progress(render):
        while done["games"] < args.games:
            if args.seconds and time.perf_counter() - started >= args.seconds:
                break
            players = counts[done["games"] % len(counts)]
            table, events = bot_table(game_type, [args.bots] * players)
            done["events"] += len(events)
            for step in steps(table, rng):
                done["decisions"] += 1
                done["events"] += len(step.events)
            done["games"] += 1
        elapsed = time.perf_counter() - started
    figures = {
        "game": args.game,
        "bots": args.bots,
        "players": counts,
        "games": done["games"],
        "seconds": round(elapsed, 2),
        "games_per_second": round(done["games"] / elapsed, 1),
        "decisions_per_second": round(done["decisions"] / elapsed, 1),
        "events_per_second": round(done["events"] / elapsed, 1),
        "events_per_game": round(done["events"] / max(done["games"], 1), 1),
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
