"""A player's inbox (`GET /me/games?turn=mine`) in a big store: is it still one quick read? The
store is bulk-loaded (COPY) with `players` players and `tables` tables of three, every seat a
player's, half finished, the others waiting on one seat or two, some with turn timers."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.games import copy_rows
from bench.support.players import Api, expect
from bench.support.stats import ms_percentiles
from events.credentials import token_hash
from events.players import new_key

SEATS = 3


def load(database_url: str, s: Settings) -> list[str]:
    """The players (their keys are returned) and tables, written with COPY."""
    rng, now = random.Random(s["seed"]), datetime.now(UTC)
    keys = [new_key() for _ in range(s["players"])]
    ids = [uuid.uuid4() for _ in keys]
    streams: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    timers: list[tuple[Any, ...]] = []
    for index in range(s["tables"]):
        game = uuid.uuid4()
        version, finished = rng.randint(20, 400), index % 2 == 0
        to_act = [] if finished else rng.sample(range(SEATS), rng.choice((1, 2)))
        moved = now - timedelta(seconds=rng.randint(0, 86_400 * 30))
        streams.append((game, "trick_and_snipers", "finished" if finished else "active", version,
                        "{" + ",".join(map(str, to_act)) + "}", moved, moved))  # fmt: skip
        for seat, player in enumerate(rng.sample(ids, SEATS)):
            seats.append((player, game, seat, max(0, version - rng.randint(0, 9))))
        if to_act and index % 4 == 1:
            timers += [(game, seat, version, moved + timedelta(hours=1)) for seat in to_act]
    rows = {
        "players (id, name, key_hash, created_at)": [
            (player, f"player {i}", token_hash(key), now)
            for i, (player, key) in enumerate(zip(ids, keys, strict=True))
        ],
        "streams (game_id, game_type, status, version, to_act, created_at, updated_at)": streams,
        "player_seats (player_id, game_id, seat, last_acted_version)": seats,
        "turn_timers (game_id, seat, since_version, deadline)": timers,
    }  # fmt: skip
    with psycopg.connect(database_url) as conn:
        for table, written in rows.items():
            copy_rows(conn, table, written)
        conn.commit()
        conn.execute("ANALYZE players; ANALYZE player_seats; ANALYZE streams; ANALYZE turn_timers")
    return keys


def run(context: Context, s: Settings) -> Figures:
    keys = load(context.require_service().database_url or "", s)
    rng, api = random.Random(s["seed"] + 1), Api(context.url)

    def ask() -> float:
        response, took = api.call("GET", "/me/games?turn=mine", rng.choice(keys))
        expect(response, 200)
        return took

    times = [ask() for _ in range(200 + s["requests"])][200:]  # after a warm-up
    return {"players": s["players"], "tables": s["tables"], "requests": len(times),
            **ms_percentiles("inbox", times, 50, 95)}  # fmt: skip


BENCHMARK = Benchmark(
    name="inbox",
    about="`GET /me/games?turn=mine` in a store of many players and tables",
    run=run,
    needs_service=True,
    settings={"players": (10_000, 100), "tables": (200_000, 500), "requests": (2000, 20),
        "seed": 1},
    goals=[
        Goal("inbox_p95_ms", "<", 20, "ms", "`GET /me/games?turn=mine` p95 < 20 ms with 10,000 "
            "players and 200,000 tables"),
    ],
)  # fmt: skip
