"""Ratings on a started service (the API, the relay and the RQ worker):

- update: rated tables of three bots (Trick & Snipers), `concurrent` at a time until `games`
  have ended; each game's time from its `GameEnded` (recorded_at) to its ratings written
  (rated_games.rated_at), through the outbox, the relay and the worker;
- leaderboard: `players` rated players bulk-loaded (COPY: a player and a rating of every game
  type each, and a tenth as many provisional ones), then `requests` `GET /leaderboards/{type}`
  pages of 20 at random depths (a tenth the first page, the others after a cursor met reading
  the whole board), after 200 more."""

from __future__ import annotations

import random
import statistics
import time
import uuid
from datetime import UTC, datetime

import psycopg

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api
from bench.support.stats import ms, percentile
from events.ratings import PROVISIONAL_GAMES, Rating

GAME_TYPES = ("trick_and_snipers", "st_patrick", "ouroboros_trick", "saint_poker")
BOARD = "/leaderboards/trick_and_snipers"


def update(url: str, conn: psycopg.Connection[tuple[object, ...]], s: Settings) -> Figures:
    rng, api, created = random.Random(s["seed"]), Api(url), list[str]()

    def rated(games: list[str]) -> int:
        row = conn.execute("SELECT count(*) FROM rated_games WHERE game_id = ANY(%s::uuid[])",
                           (games,)).fetchone()  # fmt: skip
        return int(str(row[0])) if row else 0

    while len(created) < s["games"]:
        seats = [{"kind": "bot", "level": rng.choice(("random", "basic"))} for _ in range(3)]
        body = {"type": "trick_and_snipers", "seats": seats, "options": {"rated": True}}
        wave = [api.json("POST", "/games", json=body)["id"]
                for _ in range(min(s["concurrent"], s["games"] - len(created)))]  # fmt: skip
        created += wave
        deadline = time.monotonic() + 300
        while rated(wave) < len(wave):
            assert time.monotonic() < deadline, f"{len(wave) - rated(wave)} games never rated"
            time.sleep(0.05)
    rows = conn.execute(
        "SELECT extract(epoch FROM g.rated_at - e.recorded_at)::float8 FROM rated_games g"
        " JOIN events e ON e.game_id = g.game_id AND e.type = 'GameEnded'"
        " WHERE g.game_id = ANY(%s::uuid[])", (created,)).fetchall()  # fmt: skip
    times = [float(str(row[0])) for row in rows]
    return {"rated_games": len(times), "update_p50_ms": round(ms(statistics.median(times)), 1),
            "update_p95_ms": round(ms(percentile(times, 95)), 1)}  # fmt: skip


def load_ratings(
    conn: psycopg.Connection[tuple[object, ...]], players: int, rng: random.Random
) -> None:
    """`players` players rated in every game type, past provisional, and a tenth as many
    provisional ones."""
    now, newcomers = datetime.now(UTC), players // 10
    ids = [uuid.uuid4() for _ in range(players + newcomers)]
    with conn.cursor() as cur:
        with cur.copy("COPY players (id, name, key_hash, created_at) FROM STDIN") as copy:
            for index, player in enumerate(ids):
                copy.write_row((player, f"player {index}", uuid.uuid4().hex, now))
        columns = "player_id, game_type, mu, sigma, games, display, provisional"
        with cur.copy(f"COPY ratings ({columns}) FROM STDIN") as copy:
            for index, player in enumerate(ids):
                least, most = (
                    (1, PROVISIONAL_GAMES - 1) if index >= players else (PROVISIONAL_GAMES, 400)
                )
                for game_type in GAME_TYPES:
                    r = Rating(rng.gauss(25, 6), rng.uniform(1.0, 8.3), rng.randint(least, most))
                    copy.write_row((player, game_type, r.mu, r.sigma, r.games, r.display,
                                    r.provisional))  # fmt: skip
    conn.commit()
    conn.execute("ANALYZE players; ANALYZE ratings")


def leaderboard(url: str, conn: psycopg.Connection[tuple[object, ...]], s: Settings) -> Figures:
    rng, api = random.Random(s["seed"]), Api(url)
    load_ratings(conn, s["players"], rng)
    cursors, cursor = list[str](), None
    while True:  # the whole board, 100 a page: a cursor every 100 players
        params = {"limit": "100"} | ({"cursor": cursor} if cursor else {})
        if (cursor := api.json("GET", BOARD, params=params)["next_cursor"]) is None:
            break
        cursors.append(cursor)
    times = []
    for index in range(200 + s["requests"]):
        chosen = None if rng.random() < 0.1 or not cursors else rng.choice(cursors)
        params = {"limit": "20"} | ({"cursor": chosen} if chosen else {})
        started = time.perf_counter()
        api.json("GET", BOARD, params=params)
        if index >= 200:  # after a warm-up
            times.append(time.perf_counter() - started)
    return {"rated_players": s["players"], "leaderboard_requests": len(times),
            "leaderboard_p50_ms": round(ms(statistics.median(times)), 1),
            "leaderboard_p95_ms": round(ms(percentile(times, 95)), 1)}  # fmt: skip


def run(context: Context, s: Settings) -> Figures:
    with psycopg.connect(context.require_service().database_url or "", autocommit=True) as conn:
        return update(context.url, conn, s) | leaderboard(context.url, conn, s)


BENCHMARK = Benchmark(
    name="ratings",
    about="a rated game's ratings written after its end, and the leaderboards' pages",
    run=run,
    needs_service=True,
    settings={"games": (200, 4), "concurrent": (20, 4), "players": (10_000, 100),
        "requests": (2000, 20), "seed": 1},
    goals=[
        Goal("update_p95_ms", "<", 1000, "ms", "a rated game's `GameEnded` to its ratings written "
            "p95 < 1 s (200 games of 3 bots, 20 at a time)"),
        Goal("leaderboard_p95_ms", "<", 20, "ms", "`GET /leaderboards/{type}` p95 < 20 ms with "
            "10,000 rated players per type"),
    ],
)  # fmt: skip
