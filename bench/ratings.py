"""Ratings on a started service: a rated game's `GameEnded` to its ratings written (through
the outbox, the relay and the RQ worker), `concurrent` tables of three bots at a time; and the
leaderboard's pages (20 at random depths) with `players` rated players bulk-loaded."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial

import psycopg

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.games import RATINGS, copy_rows
from bench.support.players import Api
from bench.support.stats import ms_percentiles, timed, wait_until
from events.ratings import PROVISIONAL_GAMES, Rating

GAME_TYPES = ("trick_and_snipers", "st_patrick", "ouroboros_trick", "saint_poker")
BOARD = "/leaderboards/trick_and_snipers"


def update(url: str, conn: psycopg.Connection[tuple[object, ...]], s: Settings) -> Figures:
    rng, api, created = random.Random(s["seed"]), Api(url), list[str]()

    def all_rated(games: list[str]) -> bool:
        row = conn.execute("SELECT count(*) FROM rated_games WHERE game_id = ANY(%s::uuid[])",
                           (games,)).fetchone()  # fmt: skip
        return row is not None and row[0] == len(games)

    while len(created) < s["games"]:
        seats = [{"kind": "bot", "level": rng.choice(("random", "basic"))} for _ in range(3)]
        body = {"type": "trick_and_snipers", "seats": seats, "options": {"rated": True}}
        wave = [api.json("POST", "/games", json=body)["id"]
                for _ in range(min(s["concurrent"], s["games"] - len(created)))]  # fmt: skip
        created += wave
        assert wait_until(partial(all_rated, wave), 300, poll=0.05), "not all rated in 300 s"
    rows = conn.execute(
        "SELECT extract(epoch FROM g.rated_at - e.recorded_at)::float8 FROM rated_games g"
        " JOIN events e ON e.game_id = g.game_id AND e.type = 'GameEnded'"
        " WHERE g.game_id = ANY(%s::uuid[])", (created,)).fetchall()  # fmt: skip
    times = [float(str(row[0])) for row in rows]
    return {"rated_games": len(times), **ms_percentiles("update", times, 50, 95)}


def load_ratings(
    conn: psycopg.Connection[tuple[object, ...]], players: int, rng: random.Random
) -> None:
    """`players` players rated in every game type, past provisional, and a tenth as many
    provisional ones."""
    now, ids = datetime.now(UTC), [uuid.uuid4() for _ in range(players + players // 10)]
    rows = ((player, f"player {i}", uuid.uuid4().hex, now) for i, player in enumerate(ids))
    copy_rows(conn, "players (id, name, key_hash, created_at)", rows)

    def ratings() -> Iterator[tuple[object, ...]]:
        for index, player in enumerate(ids):
            provisional = index >= players
            least, most = (1, PROVISIONAL_GAMES - 1) if provisional else (PROVISIONAL_GAMES, 400)
            for game_type in GAME_TYPES:
                r = Rating(rng.gauss(25, 6), rng.uniform(1.0, 8.3), rng.randint(least, most))
                yield player, game_type, r.mu, r.sigma, r.games, r.display, r.provisional

    copy_rows(conn, RATINGS, ratings())
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

    def page() -> object:  # a tenth the first page, the others after a cursor met
        chosen = None if rng.random() < 0.1 or not cursors else rng.choice(cursors)
        params = {"limit": "20"} | ({"cursor": chosen} if chosen else {})
        return api.json("GET", BOARD, params=params)

    times = [timed(page) for _ in range(200 + s["requests"])][200:]  # after a warm-up
    return {"rated_players": s["players"], "leaderboard_requests": len(times),
            **ms_percentiles("leaderboard", times, 50, 95)}  # fmt: skip


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
