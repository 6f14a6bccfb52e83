"""Ratings against a started service (`make run`'s processes: the API, the relay and the RQ
worker):

- `update`: rated tables of three bots (Trick & Snipers) are created --concurrent at a time
  until --games have ended; each game's time from its `GameEnded` (the event's recorded_at)
  to its ratings written (rated_games.rated_at), through the outbox, the relay and the worker.
  Goal: p95 < 1 s.
- `leaderboard`: --players rated players are bulk-loaded (COPY: a players row and a rating of
  every game type each, and a tenth as many provisional ones), then --requests
  `GET /leaderboards/{type}` pages of 20 at random depths (a tenth of them the first page, the
  others after one of the cursors met reading the whole board), one client. Goal: p95 < 20 ms
  with 10,000 rated players.

    .venv/bin/python -m bench.ratings update --start [--games 200 --concurrent 20]
    .venv/bin/python -m bench.ratings leaderboard --start [--players 10000 --requests 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime

import psycopg
import requests

from bench.stats import ms, percentile

UPDATE_GOAL_SECONDS = 1.0
LEADERBOARD_GOAL_MS = 20.0
GAME_TYPES = ("trick_and_snipers", "st_patrick", "ouroboros_trick", "saint_poker")
BOARD = "trick_and_snipers"
LEVELS = ("random", "basic")


def rated_table(session: requests.Session, url: str, rng: random.Random) -> str:
    seats = [{"kind": "bot", "level": rng.choice(LEVELS)} for _ in range(3)]
    body = {"type": "trick_and_snipers", "seats": seats, "options": {"rated": True}}
    response = session.post(f"{url}/games", json=body, timeout=30)
    if response.status_code != 201:
        raise SystemExit(f"POST /games answered {response.status_code}: {response.text}")
    return response.json()["id"]


def rated_now(conn: psycopg.Connection, games: list[str]) -> int:
    row = conn.execute(
        "SELECT count(*) FROM rated_games WHERE game_id = ANY(%s::uuid[])", (games,)
    ).fetchone()
    return 0 if row is None else row[0]


def update_latencies(conn: psycopg.Connection, games: list[str]) -> list[float]:
    """Per game: from its GameEnded's recorded_at to its ratings written."""
    rows = conn.execute(
        "SELECT extract(epoch FROM g.rated_at - e.recorded_at)::float8 FROM rated_games g"
        " JOIN events e ON e.game_id = g.game_id AND e.type = 'GameEnded'"
        " WHERE g.game_id = ANY(%s::uuid[])",
        (games,),
    ).fetchall()
    return [row[0] for row in rows]


def update(url: str, database_url: str, games: int, concurrent: int, seed: int) -> bool:
    rng = random.Random(seed)
    session = requests.Session()
    created: list[str] = []
    started = time.monotonic()
    with psycopg.connect(database_url, autocommit=True) as conn:
        while len(created) < games:
            wave = [
                rated_table(session, url, rng) for _ in range(min(concurrent, games - len(created)))
            ]
            created += wave
            deadline = time.monotonic() + 300
            while rated_now(conn, wave) < len(wave):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{len(wave) - rated_now(conn, wave)} games never rated")
                time.sleep(0.05)
            print(f"{len(created)}/{games} rated games ended and rated "
                  f"({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
        times = update_latencies(conn, created)
    p95 = percentile(times, 95)
    print(f"games                {len(times)} (Trick & Snipers, 3 bots, {concurrent} at a time)")
    print(f"update p50 ms        {ms(statistics.median(times)):.1f}")
    print(f"update p95 ms        {ms(p95):.1f}")
    print(f"update max ms        {ms(max(times)):.1f}")
    ok = p95 < UPDATE_GOAL_SECONDS
    print(f"goal: rating written p95 < {UPDATE_GOAL_SECONDS:.0f} s after GameEnded: "
          f"{'PASS' if ok else 'FAIL'}")  # fmt: skip
    return ok


def load_ratings(database_url: str, players: int, rng: random.Random) -> None:
    """`players` players rated in every game type, past provisional, and a tenth as many
    provisional ones; written with COPY."""
    from events.ratings import PROVISIONAL_GAMES, Rating

    now = datetime.now(UTC)
    newcomers = players // 10
    with psycopg.connect(database_url) as conn, conn.cursor() as cur:
        ids = [uuid.UUID(int=rng.getrandbits(128), version=4) for _ in range(players + newcomers)]
        with cur.copy("COPY players (id, name, key_hash, created_at) FROM STDIN") as copy:
            for index, player in enumerate(ids):
                copy.write_row((player, f"player {index}", uuid.uuid4().hex, now))
        print(f"loaded {len(ids)} players", file=sys.stderr, flush=True)
        columns = "player_id, game_type, mu, sigma, games, display, provisional"
        with cur.copy(f"COPY ratings ({columns}) FROM STDIN") as copy:
            for index, player in enumerate(ids):
                floor = 1 if index >= players else PROVISIONAL_GAMES
                for game_type in GAME_TYPES:
                    r = Rating(rng.gauss(25, 6), rng.uniform(1.0, 8.3), rng.randint(floor, 400))
                    if index >= players:
                        r = Rating(r.mu, r.sigma, rng.randint(1, PROVISIONAL_GAMES - 1))
                    copy.write_row((player, game_type, r.mu, r.sigma, r.games, r.display,
                                    r.provisional))  # fmt: skip
        print(f"loaded {len(ids) * len(GAME_TYPES)} ratings", file=sys.stderr, flush=True)
        conn.commit()
        cur.execute("ANALYZE players; ANALYZE ratings")


def cursors(url: str, count: int, rng: random.Random) -> list[str | None]:
    """`count` cursors of random depths (None: the first page), among those of the board read
    whole, 100 players a page: one every 100 players."""
    session = requests.Session()
    positions: list[str] = []
    cursor: str | None = None
    while True:
        params = {"limit": "100"} | ({"cursor": cursor} if cursor else {})
        cursor = session.get(f"{url}/leaderboards/{BOARD}", params=params, timeout=30).json()[
            "next_cursor"
        ]
        if cursor is None:
            break
        positions.append(cursor)
    print(f"read the whole board: {len(positions) + 1} pages of 100", file=sys.stderr)
    return [None if rng.random() < 0.1 else rng.choice(positions) for _ in range(count)]


def leaderboard(url: str, database_url: str, players: int, requests_: int, seed: int) -> bool:
    rng = random.Random(seed)
    load_ratings(database_url, players, rng)
    asked = cursors(url, requests_ + 200, rng)
    session = requests.Session()
    times: list[float] = []
    for index, cursor in enumerate(asked):
        params = {"limit": "20"} | ({"cursor": cursor} if cursor else {})
        started = time.perf_counter()
        response = session.get(f"{url}/leaderboards/{BOARD}", params=params, timeout=30)
        took = time.perf_counter() - started
        if response.status_code != 200 or len(response.json()["items"]) == 0 and cursor is None:
            raise SystemExit(f"the leaderboard answered {response.status_code}: {response.text}")
        if index >= 200:  # after a warm-up
            times.append(took)
        if index % 500 == 0:
            print(f"{index}/{len(asked)} pages read", file=sys.stderr, flush=True)
    p95 = percentile(times, 95)
    print(f"rated players        {players} (+{players // 10} provisional), 4 game types")
    print(f"requests             {len(times)} (20 a page, random depths)")
    print(f"leaderboard p50 ms   {ms(statistics.median(times)):.1f}")
    print(f"leaderboard p95 ms   {ms(p95):.1f}")
    print(f"leaderboard max ms   {ms(max(times)):.1f}")
    ok = ms(p95) < LEADERBOARD_GOAL_MS
    print(f"goal: GET /leaderboards/{{type}} p95 < {LEADERBOARD_GOAL_MS:.0f} ms with "
          f"{players:,} rated players: {'PASS' if ok else 'FAIL'}")  # fmt: skip
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scenario", choices=["update", "leaderboard"])
    p.add_argument("--start", action="store_true", help="start a service (else --url)")
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--database-url", help="the service's database (without --start)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--concurrent", type=int, default=20)
    p.add_argument("--players", type=int, default=10_000)
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    def run(url: str, database_url: str) -> bool:
        if args.scenario == "update":
            return update(url, database_url, args.games, args.concurrent, args.seed)
        return leaderboard(url, database_url, args.players, args.requests, args.seed)

    if not args.start:
        if not args.database_url:
            raise SystemExit("--database-url is needed without --start")
        return 0 if run(args.url, args.database_url) else 1
    from bench.service import started_service

    with started_service() as service:
        assert service.database_url, "the started service's database was not found"
        return 0 if run(service.url, service.database_url) else 1


if __name__ == "__main__":
    sys.exit(main())
