"""Matchmaking under a rush: players join the queues of all four games within a few seconds,
and the matcher on the worker seats them.

    .venv/bin/python -m bench.matchmaking --start                  # a service as make run starts it
    .venv/bin/python -m bench.matchmaking --start --players 200 --seconds 2   # a quick look

Makes --players players first (set-up, not timed), then has them join (`POST /me/queue`) from
--threads clients, as fast as the clients go (or, with --seconds S, at an even pace over S
seconds): each a random game type, a random choice of the sizes that game is played at, rated,
with bots after --bots-after seconds (so that the last few of a pool are seated too). The joins
are timed from the first sent to the last answered. Then it reads every player's
`GET /me/queue` until all are seated (or --patience runs out). Time to a match is the
server's own: `matched_at - since`, both from the database's clock. For each table it prints
the spread of its humans' ratings, as the matcher saw them (the `rating` each join answered).

So that the matcher has strengths to tell apart, the players get ratings first, drawn from a
normal law (mean 25, --spread): written straight into the ratings projection's rows, as if
they had played (--spread 0: every player a newcomer). That needs the database: the one the
bench started, or --database-url.

Goal: 2,000 players joining within 10 s, every one seated, time to a match p95 < 5 s.
Paced over exactly 10 s, the last join would be sent 5 ms before the end and could not be
answered in time however fast the server: flat out, the time the joins take is the measure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

from bench.stats import Progress, percentile

GOAL_PLAYERS, GOAL_SECONDS, GOAL_P95 = 2000, 10.0, 5.0
SIZES = {"st_patrick": (3, 4), "ouroboros_trick": (3, 5), "trick_and_snipers": (3, 5),
         "saint_poker": (2, 5)}  # fmt: skip


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (as make run)")
    p.add_argument("--url", default="http://127.0.0.1:8000", help="a running service")
    p.add_argument("--players", type=int, default=GOAL_PLAYERS)
    p.add_argument(
        "--seconds",
        type=float,
        default=0.0,
        help="pace the joins evenly over this many seconds (0: flat out)",
    )
    p.add_argument("--threads", type=int, default=16, help="clients joining at once")
    p.add_argument("--bots-after", type=int, default=4, help="each join's bots_after_seconds")
    p.add_argument("--patience", type=float, default=60.0, help="seconds to wait for seats")
    p.add_argument("--spread", type=float, default=5.0, help="the ratings' standard deviation")
    p.add_argument("--database-url", help="the service's Postgres, to give players ratings")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the figures to this file too")
    return p.parse_args(argv)


def _ok(response) -> dict:
    if response.status_code >= 300:
        raise SystemExit(f"{response.request.method} {response.url}: {response.text}")
    return response.json()


def _auth(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def make_players(url: str, count: int, threads: int) -> list[dict]:
    """`count` players (id, key), made by `threads` clients."""
    import requests

    made: list[dict] = []
    lock = threading.Lock()

    def make(share: int) -> None:
        session = requests.Session()
        for index in range(share):
            player = _ok(session.post(f"{url}/players", json={"name": f"q{index}"}))
            with lock:
                made.append(player)

    shares = [count // threads + (i < count % threads) for i in range(threads)]
    with Progress(lambda t: f"making players: {len(made)}/{count}"):
        _all(threading.Thread(target=make, args=(share,)) for share in shares)
    return made


def give_ratings(database_url: str, players: list[dict], spread: float, seed: int) -> None:
    """Each player a rating at every game type, drawn from N(25, spread), as rows of the
    ratings projection (12 games each: settled, like a regular's)."""
    import psycopg

    rng = random.Random(seed)
    with psycopg.connect(database_url) as conn, conn.cursor() as cur:
        columns = "player_id, game_type, mu, sigma, games, display, provisional"
        with cur.copy(f"COPY ratings ({columns}) FROM STDIN") as copy:
            for player in players:
                for game_type in SIZES:
                    mu, sigma = rng.gauss(25.0, spread), 2.0
                    copy.write_row((player["id"], game_type, mu, sigma, 12, mu - 3 * sigma, False))
    print(f"gave {len(players)} players ratings (spread {spread})", file=sys.stderr)


def join_all(url: str, players: list[dict], args: argparse.Namespace) -> tuple[list[dict], float]:
    """Each player joins at its moment of an even schedule over --seconds; what each asked and
    the join's answer, and the seconds from the first join to the last answer."""
    import requests

    rng = random.Random(args.seed)
    asks = []
    for player in players:
        game_type = rng.choice(sorted(SIZES))
        low, high = SIZES[game_type]
        sizes = sorted(rng.sample(range(low, high + 1), rng.randint(1, high - low + 1)))
        body = {"type": game_type, "players": sizes, "rated": True,
                "bots_after_seconds": args.bots_after}  # fmt: skip
        asks.append({"player": player, "body": body})
    step = args.seconds / max(1, len(asks))
    started = time.monotonic()
    done = [0]
    lock = threading.Lock()

    def join(mine: list[int]) -> None:
        session = requests.Session()
        for index in mine:
            time.sleep(max(0.0, started + index * step - time.monotonic()))
            ask = asks[index]
            answer = session.post(f"{url}/me/queue", json=ask["body"],
                                  headers=_auth(ask["player"]["key"]))  # fmt: skip
            ask["joined"] = _ok(answer)
            with lock:
                done[0] += 1

    with Progress(lambda t: f"joining: {done[0]}/{len(asks)} in {t:.1f} s"):
        _all(
            threading.Thread(target=join, args=(list(range(i, len(asks), args.threads)),))
            for i in range(args.threads)
        )
    span = time.monotonic() - started
    print(f"{len(asks)} joins in {span:.1f} s ({len(asks) / span:.0f}/s)", file=sys.stderr)
    return asks, span


def wait_for_seats(url: str, asks: list[dict], patience: float, threads: int) -> None:
    """Reads the unseated players' `GET /me/queue` until every one is seated or time is up."""
    import requests

    sessions = [requests.Session() for _ in range(threads)]
    deadline = time.monotonic() + patience

    def look(mine: list[dict], session) -> None:
        for ask in mine:
            ask["standing"] = _ok(
                session.get(f"{url}/me/queue", headers=_auth(ask["player"]["key"]))
            )

    def unseated() -> list[dict]:
        return [a for a in asks if a.get("standing", {}).get("status") != "matched"]

    with Progress(lambda t: f"seated: {len(asks) - len(unseated())}/{len(asks)}"):
        while (waiting := unseated()) and time.monotonic() < deadline:
            _all(
                threading.Thread(target=look, args=(waiting[i::threads], sessions[i]))
                for i in range(threads)
            )
            if unseated():
                time.sleep(0.5)


def figures(asks: list[dict]) -> dict:
    seated = [a for a in asks if a.get("standing", {}).get("status") == "matched"]
    waits = [_seconds(a["standing"]["match"]["matched_at"], a["standing"]["since"]) for a in seated]
    tables: dict[str, list[dict]] = defaultdict(list)
    for ask in seated:
        tables[ask["standing"]["match"]["game_id"]].append(ask)
    spreads = []
    shapes: Counter = Counter()
    for members in tables.values():
        ratings = [m["joined"]["rating"]["rating"] for m in members]
        spreads.append(max(ratings) - min(ratings))
        shapes[(members[0]["body"]["type"], len(members))] += 1
    waits_by_type = defaultdict(list)
    for ask, wait in zip(seated, waits, strict=True):
        waits_by_type[ask["body"]["type"]].append(wait)
    return {
        "players": len(asks),
        "seated": len(seated),
        "tables": len(tables),
        "time_to_match_p50_s": percentile(waits, 50),
        "time_to_match_p95_s": percentile(waits, 95),
        "time_to_match_max_s": max(waits) if waits else float("nan"),
        "time_to_match_p95_s_by_type": {
            k: percentile(v, 95) for k, v in sorted(waits_by_type.items())
        },
        "rating_spread_p50": percentile(spreads, 50),
        "rating_spread_p95": percentile(spreads, 95),
        "rating_spread_max": max(spreads) if spreads else float("nan"),
        "tables_by_type_and_humans": {f"{t} x{n}": c for (t, n), c in sorted(shapes.items())},
    }


def print_spreads(asks: list[dict]) -> None:
    """Each table's humans' ratings and their spread, a line per table (the first 40)."""
    tables: dict[str, list[dict]] = defaultdict(list)
    for ask in asks:
        if ask.get("standing", {}).get("status") == "matched":
            tables[ask["standing"]["match"]["game_id"]].append(ask)
    print("rating spread within each table (humans' ratings as the matcher saw them):")
    for shown, (game_id, members) in enumerate(sorted(tables.items())):
        if shown == 40:
            print(f"  ... and {len(tables) - 40} more tables")
            break
        ratings = sorted(m["joined"]["rating"]["rating"] for m in members)
        print(f"  {game_id[:8]} {members[0]['body']['type']:18} {len(members)} humans"
              f"  spread {max(ratings) - min(ratings):5.2f}  ratings {ratings}")  # fmt: skip


def _seconds(later: str, earlier: str) -> float:
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()


def _all(threads) -> None:
    started = list(threads)
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()


def run(args: argparse.Namespace, url: str, database_url: str | None) -> dict:
    players = make_players(url, args.players, args.threads)
    if args.spread > 0 and database_url:
        give_ratings(database_url, players, args.spread, args.seed)
    elif args.spread > 0:
        print("no --database-url: every player is a newcomer", file=sys.stderr)
    asks, span = join_all(url, players, args)
    wait_for_seats(url, asks, args.patience, args.threads)
    print_spreads(asks)
    return {"joins_seconds": span, "joins_per_second": len(asks) / span, **figures(asks)}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.start:
        from bench.service import started_service

        with started_service() as service:
            found = run(args, service.url, service.database_url)
    else:
        found = run(args, args.url, args.database_url)
    for name, value in found.items():
        shown = f"{value:.2f}" if isinstance(value, float) else json.dumps(value, default=str)
        print(f"{name:30} {shown}")
    ok = (
        found["players"] >= GOAL_PLAYERS
        and found["joins_seconds"] <= GOAL_SECONDS
        and found["seated"] == found["players"]
        and found["time_to_match_p95_s"] < GOAL_P95
    )
    print(f"goal: {GOAL_PLAYERS:,} players joining within {GOAL_SECONDS:.0f} s, every one seated,"
          f" time to a match p95 < {GOAL_P95:.0f} s: {'PASS' if ok else 'FAIL'}")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(found, indent=2, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
