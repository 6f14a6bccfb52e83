"""Players' notice streams (`GET /me/stream`) while their tables play: how soon a notice
reaches its player. Pairs of players share Trick & Snipers tables with a basic bot, each with
its `/me/stream` open (bench/support/sse_reader.py), and play about `moves` moves a second for
`seconds`; a notice's delivery is its arrival less its `at` (its commit's)."""

from __future__ import annotations

import random
import threading
import time
from functools import partial

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api, choose_action
from bench.support.sse_reader import ReaderProcess
from bench.support.stats import Counter, Progress, in_background, ms_percentiles, wait_until

Table = tuple[str, list[str]]  # the game's id, its two players' keys by seat


def seat_players(api: Api, count: int) -> list[Table]:
    tables = []
    for index in range(0, count - count % 2, 2):
        first, second = (api.json("POST", "/players", json={"name": f"p{index + i}"})
                         for i in range(2))  # fmt: skip
        seats = [{"kind": "human", "player": "me"}, {"kind": "open", "player": second["id"]},
                 {"kind": "bot", "level": "basic"}]  # fmt: skip
        body = {"type": "trick_and_snipers", "seats": seats}
        game = api.json("POST", "/games", first["key"], json=body)["id"]
        api.json("POST", f"/games/{game}/seats/1/join", second["key"], json={})
        tables.append((game, [first["key"], second["key"]]))
    return tables


def drive(url: str, mine: list[Table], pause: float, moves: Counter, stop: threading.Event) -> None:
    """A move of one of `mine` (whoever of its two may act) every `pause` s until stopped."""
    api, rng = Api(url), random.Random(len(mine))
    while not stop.is_set():
        game, keys = rng.choice(mine)
        for key in keys:
            view = api.json("GET", f"/games/{game}", key)
            if (view.get("you") or {}).get("legal_actions"):
                action = choose_action(view, rng, "first")
                api.call("POST", f"/games/{game}/actions", key, json=action)
                moves.add()
                break
        stop.wait(pause)


def run(context: Context, s: Settings) -> Figures:
    tables = seat_players(Api(context.url), s["players"])
    keys = [key for _, two in tables for key in two]
    reader = ReaderProcess(context.url)
    reader.open([f"/me/stream?access_token={key}" for key in keys], concurrency=50)
    wait_until(lambda: reader.status().open_now >= len(keys), 120, poll=0.5)
    opened, moves, pause = reader.status().open_now, Counter(), s["drivers"] / s["moves"]
    drivers = [
        partial(drive, context.url, tables[i :: s["drivers"]], pause, moves)
        for i in range(s["drivers"])
    ]
    with in_background(drivers), Progress(lambda t: f"[notices] {t:.0f} s: {moves.value} moves"):
        time.sleep(s["seconds"])
    time.sleep(1.0)  # the last notices arrive
    final = reader.stop()
    lags = list(final.lags)
    return {"players": len(keys), "streams_open": opened, "all_streams_open": opened == len(keys),
            "moves": moves.value, "notices_timed": len(lags),
            "failed_streams": sum(final.failed.values()),
            **ms_percentiles("delivery", lags, 50, 95)}  # fmt: skip


BENCHMARK = Benchmark(
    name="notices",
    about="`/me/stream` notice delivery with many players' streams open",
    run=run,
    needs_service=True,
    service_env={"MAX_STREAMS_PER_CLIENT": "0"},
    settings={"players": (2000, 20), "seconds": (60.0, 3.0), "moves": (40.0, 10.0), "drivers": 4},
    goals=[
        Goal("delivery_p95_ms", "<", 250, "ms", "`/me/stream` notice delivery p95 < 250 ms with "
            "2,000 players' streams open"),
        Goal("all_streams_open", "==", True, about="every player's stream open"),
    ],
)  # fmt: skip
