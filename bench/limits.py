"""What rate limiting costs: actions/s of the service with RATE_LIMITS off against a second
API beside it with every limit on but set too high to refuse anything (the cost of counting),
played in turn by the actions bench's four-human games."""

from __future__ import annotations

import statistics

from bench import actions
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.service import second_api
from bench.support.sides import alternate

NAMES = ("CREATE", "CREATE_BOTS", "ACTIONS", "ACTIONS_PER_ADDRESS", "READS", "READS_PER_ADDRESS")
LIMITS = {f"RATE_LIMIT_{name}": "1000000/second" for name in NAMES}


def run(context: Context, s: Settings) -> Figures:
    games = actions.BENCHMARK.resolved(context.quick) | {"clients": s["clients"]}

    def rate(side: str, url: str, round_no: int) -> float:
        done = actions.run_humans(games, url, s["games"], f"limits {side} {round_no}")
        return done.actions / done.seconds

    with second_api(context.require_service(), {"RATE_LIMITS": "on", **LIMITS}) as limited:
        rates = alternate({"off": context.url, "on": limited}, s["rounds"], rate)
    off, on = statistics.median(rates["off"]), statistics.median(rates["on"])
    paired = statistics.median(1 - a / b for a, b in zip(rates["on"], rates["off"], strict=True))
    return {"actions_per_s_off": round(off, 1), "actions_per_s_on": round(on, 1),
            "rounds_off": rates["off"], "rounds_on": rates["on"],
            "cost": round(1 - on / off, 3), "cost_median_of_rounds": round(paired, 3)}  # fmt: skip


BENCHMARK = Benchmark(
    name="limits",
    about="actions/s lost to rate limiting, every limit on and none reached",
    run=run,
    needs_service=True,
    service_env={"RATE_LIMITS": "off", **LIMITS},
    settings={"games": (60, 4), "clients": 8, "rounds": (6, 2)},
    goals=[
        Goal("cost", "<=", 0.10, about="actions/s lost to rate limiting (every limit on, none "
            "reached) <= 10 %"),
    ],
)  # fmt: skip
