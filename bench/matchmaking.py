"""Matchmaking under a rush: `players` players (made first, untimed, rated from N(25, `spread`)
so the matcher has strengths to tell apart) join the queues of the four games from `threads`
clients, flat out or paced over `seconds`, then are read until seated. Time to a match is the
server's own (`matched_at - since`); a table's spread is its humans' ratings as they joined."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from datetime import datetime
from typing import Any

import psycopg

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.games import RATINGS, copy_rows
from bench.support.players import Api
from bench.support.stats import Progress, in_threads, percentile

SIZES = {"st_patrick": (3, 4), "ouroboros_trick": (3, 5), "trick_and_snipers": (3, 5),
         "saint_poker": (2, 5)}  # fmt: skip
Ask = dict[str, Any]  # a player, its join's body, and what the server answered


def give_ratings(database_url: str, asks: list[Ask], spread: float, rng: random.Random) -> None:
    mus = [(ask["player"]["id"], game, rng.gauss(25.0, spread)) for ask in asks for game in SIZES]
    with psycopg.connect(database_url) as conn:
        copy_rows(conn, RATINGS, ((p, game, mu, 2.0, 12, mu - 6, False) for p, game, mu in mus))


def join(url: str, asks: list[Ask], started: float, step: float) -> None:
    api = Api(url)
    for ask in asks:
        time.sleep(max(0.0, started + ask["index"] * step - time.monotonic()))
        ask["joined"] = api.json("POST", "/me/queue", ask["player"]["key"], json=ask["body"])


def look(url: str, asks: list[Ask]) -> None:
    api = Api(url)
    for ask in asks:
        ask["standing"] = api.json("GET", "/me/queue", ask["player"]["key"])


def seated(asks: list[Ask], matched: bool = True) -> list[Ask]:
    return [a for a in asks if (a.get("standing", {}).get("status") == "matched") == matched]


def run(context: Context, s: Settings) -> Figures:
    rng, threads = random.Random(s["seed"]), s["threads"]
    asks: list[Ask] = [{"index": i} for i in range(s["players"])]

    def make(mine: list[Ask]) -> None:
        api = Api(context.url)
        for ask in mine:
            ask["player"] = api.json("POST", "/players", json={"name": f"q{ask['index']}"})

    in_threads(make, [(asks[i::threads],) for i in range(threads)])
    if s["spread"] > 0:
        give_ratings(context.require_service().database_url or "", asks, s["spread"], rng)
    for ask in asks:
        game_type = rng.choice(sorted(SIZES))
        low, high = SIZES[game_type]
        sizes = sorted(rng.sample(range(low, high + 1), rng.randint(1, high - low + 1)))
        ask["body"] = {"type": game_type, "players": sizes, "rated": True,
                       "bots_after_seconds": s["bots_after"]}  # fmt: skip
    started = time.monotonic()
    with Progress(lambda t: f"[matchmaking] joining: {sum('joined' in a for a in asks)}"):
        in_threads(join, [(context.url, asks[i::threads], started, s["seconds"] / len(asks))
                          for i in range(threads)])  # fmt: skip
    span, deadline = time.monotonic() - started, time.monotonic() + s["patience"]
    while len(seated(asks)) < len(asks) and time.monotonic() < deadline:
        waiting = seated(asks, matched=False)
        in_threads(look, [(context.url, waiting[i::threads]) for i in range(threads)])
        time.sleep(0.5)
    tables: dict[str, list[Ask]] = defaultdict(list)
    for ask in seated(asks):
        tables[ask["standing"]["match"]["game_id"]].append(ask)
    waits = [(datetime.fromisoformat(a["standing"]["match"]["matched_at"])
              - datetime.fromisoformat(a["standing"]["since"])).total_seconds()
             for a in seated(asks)]  # fmt: skip
    spreads = [
        max(r) - min(r)
        for r in ([m["joined"]["rating"]["rating"] for m in members] for members in tables.values())
    ]
    return {
        "players": len(asks), "joins_seconds": round(span, 2),
        "joins_per_s": round(len(asks) / span, 1), "unseated": len(asks) - len(seated(asks)),
        "tables": len(tables), "time_to_match_p50_s": round(percentile(waits, 50), 2),
        "time_to_match_p95_s": round(percentile(waits, 95), 2),
        "rating_spread_p50": round(percentile(spreads, 50), 2),
        "rating_spread_p95": round(percentile(spreads, 95), 2),
        "rating_spread_max": round(max(spreads, default=float("nan")), 2),
    }  # fmt: skip


BENCHMARK = Benchmark(
    name="matchmaking",
    about="a rush of players joining the four games' queues, and the matcher seating them",
    run=run,
    needs_service=True,
    settings={"players": (2000, 40), "seconds": 0.0, "threads": (16, 4), "bots_after": 4,
        "patience": (60.0, 20.0), "spread": 5.0, "seed": 1},
    goals=[
        Goal("joins_seconds", "<=", 10, "s", "2,000 players join the four games' queues within 10 "
            "s"),
        Goal("unseated", "==", 0, about="every one seated"),
        Goal("time_to_match_p95_s", "<", 5, "s", "time to a match p95 < 5 s"),
    ],
)  # fmt: skip
