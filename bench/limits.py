"""What rate limiting costs: action throughput with RATE_LIMITS on vs off in one run: a service
as make run starts it (limits off) and a second API beside it (limits on) on the same database,
Redis and worker, played in alternating batches. The limits are set so high that no request is
refused: what is measured is the cost of counting.

    .venv/bin/python -m bench.limits --games 60 --rounds 6

Goal: the cost is at most 10 % of the actions per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from bench import actions
from bench.service import second_api, started_service

GOAL_COST = 0.10
NEVER_REACHED = "1000000/second"
LIMITS = {
    name: NEVER_REACHED
    for name in (
        "RATE_LIMIT_CREATE", "RATE_LIMIT_CREATE_BOTS", "RATE_LIMIT_ACTIONS",
        "RATE_LIMIT_ACTIONS_PER_ADDRESS", "RATE_LIMIT_READS", "RATE_LIMIT_READS_PER_ADDRESS",
    )
}  # fmt: skip


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=60, help="games per batch")
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--rounds", type=int, default=6, help="off/on batch pairs, alternated")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    bench_args = actions.parse_args(["--games", str(args.games), "--clients", str(args.clients)])
    rates: dict[str, list[float]] = {"off": [], "on": []}
    with started_service({"RATE_LIMITS": "off", **LIMITS}) as service:
        with second_api(service, {"RATE_LIMITS": "on", **LIMITS}) as limited_url:
            urls = {"off": service.url, "on": limited_url}
            for round_number in range(args.rounds):
                for mode in ("off", "on") if round_number % 2 == 0 else ("on", "off"):
                    run = actions.run_humans(bench_args, urls[mode], args.games, f"limits {mode}")
                    rates[mode].append(run.actions / run.seconds)
                    print(f"round {round_number + 1}: limits {mode}"
                          f" {rates[mode][-1]:.1f} actions/s", file=sys.stderr)  # fmt: skip
    off, on = statistics.median(rates["off"]), statistics.median(rates["on"])
    cost = 1 - on / off
    for mode, rate in (("off", off), ("on", on)):
        runs = ", ".join(f"{r:.1f}" for r in rates[mode])
        print(f"actions_per_s_limits_{mode:3} {rate:.1f}  (runs {runs})")
    paired = statistics.median(1 - a / b for a, b in zip(rates["on"], rates["off"], strict=True))
    print(f"cost_of_rate_limiting    {cost:.1%}  (median of the rounds' own costs: {paired:.1%})")
    print(f"goal: cost <= {GOAL_COST:.0%}: {'PASS' if cost <= GOAL_COST else 'FAIL'}")
    return 0 if cost <= GOAL_COST else 1


if __name__ == "__main__":
    sys.exit(main())
