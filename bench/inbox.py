"""A player's inbox (`GET /me/games?turn=mine`) in a big store: is it still one quick read?

    .venv/bin/python -m bench.inbox --start                     # a service as make run starts it
    .venv/bin/python -m bench.inbox --start --players 10000 --tables 200000 --requests 2000

Loads, in bulk (COPY), --players players and --tables tables of three seats each, every seat a
player's (so a player sits at about 3 x tables / players tables), half of the tables finished,
the others waiting on one seat or two, some with turn timers. The tables are their stream rows,
seats and timers only: the inbox reads those and never the events (bench/history.py measures a
store with a year of events). Then asks the inbox of --requests random players, each with its
own key, from --clients threads, and reports the latencies.

Goal: `GET /me/games?turn=mine` p95 < 20 ms with 10,000 players and 200,000 tables.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.stats import ms, percentile

GOAL_P95_MS = 20.0
SEATS = 3


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (as make run)")
    p.add_argument("--players", type=int, default=10_000)
    p.add_argument("--tables", type=int, default=200_000)
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--clients", type=int, default=1, help="clients asking at once")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the figures to this file too")
    return p.parse_args(argv)


def load(database_url: str, args: argparse.Namespace) -> list[str]:
    """The players (their keys are returned) and tables, written with COPY."""
    import psycopg

    from events.credentials import token_hash
    from events.players import new_key

    rng = random.Random(args.seed)
    keys = [new_key() for _ in range(args.players)]
    ids = [uuid.UUID(int=rng.getrandbits(128), version=4) for _ in keys]
    now = datetime.now(UTC)
    with psycopg.connect(database_url) as conn, conn.cursor() as cur:
        with cur.copy("COPY players (id, name, key_hash, created_at) FROM STDIN") as copy:
            for index, (player, key) in enumerate(zip(ids, keys, strict=True)):
                copy.write_row((player, f"player {index}", token_hash(key), now))
        print(f"loaded {len(keys)} players", file=sys.stderr)
        _load_tables(cur, ids, args.tables, rng, now)
        conn.commit()
        cur.execute("ANALYZE players; ANALYZE player_seats; ANALYZE streams; ANALYZE turn_timers")
    return keys


def _load_tables(cur, players: list, count: int, rng: random.Random, now: datetime) -> None:
    """The tables' rows made first, then each table COPYed in turn (a connection runs one COPY
    at a time)."""
    streams, seats, timers = [], [], []
    for index in range(count):
        game = uuid.UUID(int=rng.getrandbits(128), version=4)
        finished = index % 2 == 0
        version = rng.randint(20, 400)
        to_act = [] if finished else rng.sample(range(SEATS), rng.choice((1, 2)))
        moved = now - timedelta(seconds=rng.randint(0, 86_400 * 30))
        status = "finished" if finished else "active"
        streams.append((game, "trick_and_snipers", status, version,
                        "{" + ",".join(map(str, to_act)) + "}", moved, moved))  # fmt: skip
        for seat, player in enumerate(rng.sample(players, SEATS)):
            seats.append((player, game, seat, max(0, version - rng.randint(0, 9))))
        if to_act and index % 4 == 1:
            timers += [(game, seat, version, moved + timedelta(hours=1)) for seat in to_act]
    columns = {
        "streams (game_id, game_type, status, version, to_act, created_at, updated_at)": streams,
        "player_seats (player_id, game_id, seat, last_acted_version)": seats,
        "turn_timers (game_id, seat, since_version, deadline)": timers,
    }
    for table, rows in columns.items():
        with cur.copy(f"COPY {table} FROM STDIN") as copy:
            for done, row in enumerate(rows):
                copy.write_row(row)
                if done % 100_000 == 0:
                    print(f"\rloading {table.split()[0]}: {done}/{len(rows)}", end="",
                          file=sys.stderr, flush=True)  # fmt: skip
        print(f"\rloaded {len(rows)} rows of {table.split()[0]}" + " " * 20, file=sys.stderr)


def measure(url: str, keys: list[str], args: argparse.Namespace) -> list[float]:
    import requests

    rng = random.Random(args.seed + 1)
    chosen = [rng.choice(keys) for _ in range(args.requests)]
    times: list[float] = []
    lock = threading.Lock()

    def ask(part: list[str]) -> None:
        session = requests.Session()
        for key in part:
            started = time.perf_counter()
            response = session.get(f"{url}/me/games?turn=mine",
                                   headers={"Authorization": f"Bearer {key}"})  # fmt: skip
            took = time.perf_counter() - started
            if response.status_code != 200:
                raise SystemExit(f"the inbox answered {response.status_code}: {response.text}")
            with lock:
                times.append(took)

    threads = [threading.Thread(target=ask, args=(chosen[i :: args.clients],))
               for i in range(args.clients)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.start:
        print("--start is needed: the bench loads its players into the service's store")
        return 2
    from bench.service import started_service

    with started_service() as service:
        started = time.monotonic()
        keys = load(service.database_url, args)
        loaded = time.monotonic() - started
        measure(service.url, keys, argparse.Namespace(**{**vars(args), "requests": 200}))
        times = measure(service.url, keys, args)  # after a warm-up of 200
    figures = {
        "players": args.players,
        "tables": args.tables,
        "load_seconds": loaded,
        "requests": len(times),
        "inbox_p50_ms": ms(statistics.median(times)),
        "inbox_p95_ms": ms(percentile(times, 95)),
        "inbox_max_ms": ms(max(times)),
    }
    for name, value in figures.items():
        print(f"{name:20} {value:.1f}" if isinstance(value, float) else f"{name:20} {value}")
    ok = figures["inbox_p95_ms"] < GOAL_P95_MS
    print(f"goal: GET /me/games?turn=mine p95 < {GOAL_P95_MS:.0f} ms with {args.players:,} players"
          f" and {args.tables:,} tables: {'PASS' if ok else 'FAIL'}")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
