"""An audit flood from one address while another client reads: does the flood slow the others?
With the rate limits on at their defaults, another client (127.0.0.1) reads a game every 50 ms:
alone, then while `connections` keep-alive connections from 127.0.0.2 ask as fast as answered
for the audit of a long St Patrick game written to the store, finished, then live (cut short)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from functools import partial

import requests

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.games import long_st_patrick_game, store_game
from bench.support.players import Api
from bench.support.stats import in_background, ms_percentiles

FLOODER, READER = "127.0.0.2", "127.0.0.1"
READ_EVERY = 0.05


def flood(url: str, path: str, statuses: Counter[int], stop: threading.Event) -> None:
    api = Api(url, source=FLOODER)
    while not stop.is_set():
        try:
            statuses[api.call("GET", path)[0].status_code] += 1
        except requests.RequestException:
            statuses[0] += 1


def phase(url: str, name: str, read: str, flooded: str | None, s: Settings) -> Figures:
    statuses = Counter[int]()
    flooders = [partial(flood, url, flooded, statuses)] * s["connections"] if flooded else []
    reader, times = Api(url, source=READER), []
    with in_background(flooders):
        deadline = time.monotonic() + s["seconds"]
        while time.monotonic() < deadline:
            response, took = reader.call("GET", read)
            assert response.status_code == 200, f"another client's read got {response.status_code}"
            times.append(took)
            time.sleep(max(0.0, READ_EVERY - took))
    figures = {f"{name}_reads": len(times), **ms_percentiles(f"{name}_read", times, 50, 95)}
    if flooded:
        total = sum(statuses.values())
        figures |= {f"{name}_flood_per_s": total / s["seconds"],
                    f"{name}_flood_200": statuses[200], f"{name}_flood_429": statuses[429],
                    f"{name}_flood_other": total - statuses[200] - statuses[429]}  # fmt: skip
    return figures


def run(context: Context, s: Settings) -> Figures:
    service = context.require_service()
    table, events = long_st_patrick_game(s["min_events"], 300, s["seed"])
    finished = store_game(service, events, table.status)
    live = store_game(service, events[: len(events) - 10], "active")  # short of its GameEnded
    body = {"type": "trick_and_snipers", "seats": [{"kind": "human", "name": "reader"}] * 3}
    read = f"/games/{Api(context.url).json('POST', '/games', json=body)['id']}"
    figures = {"game_events": len(events), **phase(context.url, "quiet", read, None, s)}
    figures |= phase(context.url, "finished", read, f"/games/{finished}/audit", s)
    return figures | phase(context.url, "live", read, f"/games/{live}/audit", s)


BENCHMARK = Benchmark(
    name="audit_flood",
    about="another client's reads while 64 connections from one address flood `/audit`",
    run=run,
    needs_service=True,
    service_env={"RATE_LIMITS": "on"},
    settings={"connections": (64, 8), "seconds": (15.0, 2.0), "min_events": (220, 40), "seed": 1},
    goals=[
        Goal("finished_read_p50_ms", "<", 100, "ms", "another client's reads, median < 100 ms, "
            "while 64 connections flood a finished game's `/audit`"),
        Goal("live_read_p50_ms", "<", 100, "ms", "the same, a live game's `/audit`"),
    ],
)  # fmt: skip
