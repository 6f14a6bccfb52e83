"""Turn-timer firing lag: tables whose one human never acts, created together with
turn_seconds=5; the lag is the TurnTimedOut's recorded_at less the deadline the API showed."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api, parse_time
from bench.support.stats import percentile

TABLE = {
    "type": "trick_and_snipers",
    "seats": [{"kind": "human", "name": "silent"}, *[{"kind": "bot", "level": "basic"}] * 2],
    "options": {"turn_seconds": 5},
}


def create(url: str) -> tuple[str, datetime]:
    """A table and its silent seat's deadline."""
    api = Api(url)
    game = api.json("POST", "/games", json=TABLE)
    mine = api.json("GET", f"/games/{game['id']}", game["tokens"][0]["token"])
    api.close()
    return game["id"], parse_time(mine["seats"][0]["deadline"])


def run(context: Context, s: Settings) -> Figures:
    with ThreadPoolExecutor(max_workers=16) as pool:
        made = list(pool.map(lambda _: create(context.url), range(s["tables"])))
    last = max(deadline for _, deadline in made)
    time.sleep(max(0.0, (last - datetime.now(last.tzinfo)).total_seconds() + 3))
    api, lags = Api(context.url), []
    for game_id, deadline in made:
        page = api.json("GET", f"/games/{game_id}/events?limit=1000")
        fired = [
            parse_time(e["recorded_at"]) for e in page["events"] if e["type"] == "TurnTimedOut"
        ]
        lags.append((fired[0] - deadline).total_seconds() if fired else float("inf"))
    return {
        "tables": len(made),
        "deadlines_spread_s": round((last - min(d for _, d in made)).total_seconds(), 3),
        "never_timed_out": sum(lag == float("inf") for lag in lags),
        "firing_lag_p50_s": round(percentile(lags, 50), 3),
        "firing_lag_p95_s": round(percentile(lags, 95), 3),
        "firing_lag_max_s": round(max(lags), 3),
    }


BENCHMARK = Benchmark(
    name="timers",
    about="turn timers firing together: the lag from each deadline to its TurnTimedOut",
    run=run,
    needs_service=True,
    settings={"tables": (100, 5)},
    goals=[
        Goal("firing_lag_p95_s", "<", 1.0, "s", "turn-timer firing lag p95 < 1 s, 100 tables "
            "timing out together"),
    ],
)  # fmt: skip
