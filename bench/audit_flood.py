"""An audit flood from one address while another client reads: does the flood slow the others?

    .venv/bin/python -m bench.audit_flood --start          # a service as make run starts it
    .venv/bin/python -m bench.audit_flood --connections 64 --seconds 15 --start

The service runs with its rate limits on, at their defaults. A long St Patrick game (about 220
events, self-played by basic bots) is written to the store twice, signed with the service's key:
whole (finished) and cut short (live). Then, one phase after another:
- quiet: the other client alone;
- finished: --connections keep-alive connections from 127.0.0.2 ask for the finished game's
  audit as fast as they are answered, for --seconds;
- live: the same against the live game.
Meanwhile the other client, from 127.0.0.1, reads a game (`GET /games/{id}`) every 50 ms.

Goal: in both flood phases the other client's reads have a median under 100 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from bench.stats import ms, percentile

GOAL_MEDIAN_MS = 100.0
FLOODER, READER = "127.0.0.2", "127.0.0.1"
READ_EVERY = 0.05


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (as make run)")
    p.add_argument("--connections", type=int, default=64)
    p.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    p.add_argument("--min-events", type=int, default=220)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the figures to this file too")
    return p.parse_args(argv)


def long_game(min_events: int, seed: int):
    """A St Patrick game of basic bots with at least `min_events` events (or the longest of
    300 tries)."""
    from domain.games import GAME_TYPES
    from domain.tables.selfplay import play_out

    best = None
    for i in range(300):
        table, events = play_out(
            GAME_TYPES["st_patrick"], ["basic"] * 4, random.Random(f"{seed}:{i}")
        )
        if best is None or len(events) > len(best[1]):
            best = (table, events)
        if len(best[1]) >= min_events:
            break
    assert best is not None
    return best


def store_games(database_url: str, data_dir: str, min_events: int, seed: int) -> tuple[str, str]:
    """The finished game and its live cut, written as the service writes them."""
    import psycopg

    from events.audit.signing import load_or_create_signer
    from events.operations.settings import Settings
    from events.postgres import store
    from events.records import new_events

    table, events = long_game(min_events, seed)
    signer = load_or_create_signer(Settings(data_dir=data_dir).audit_key_path)
    cut = events[: len(events) - 10]  # short of its end (GameEnded is last): still on
    ids = []
    with psycopg.connect(database_url) as conn, conn.transaction():
        for written, status in ((events, table.status), (cut, "active")):
            game_id = uuid.uuid4()
            store.create_stream(conn, game_id, "st_patrick")
            store.append(conn, game_id, 0, new_events(written), sign=signer.sign)
            store.set_stream_status(conn, game_id, status)
            ids.append(str(game_id))
    print(f"stored a game of {len(events)} events, and its live cut", file=sys.stderr)
    return ids[0], ids[1]


def connection(url: str, source: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=30, source_address=(source, 0)
    )


def get(conn: http.client.HTTPConnection, path: str) -> int:
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    return response.status


class Flood:
    """`connections` threads asking for `path` from FLOODER until stopped."""

    def __init__(self, url: str, path: str, connections: int) -> None:
        self.statuses: Counter[int] = Counter()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, args=(url, path), daemon=True)
            for _ in range(connections)
        ]

    def __enter__(self) -> Flood:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=35)

    def _run(self, url: str, path: str) -> None:
        conn = connection(url, FLOODER)
        while not self._stop.is_set():
            try:
                status = get(conn, path)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = connection(url, FLOODER)
                status = 0
            with self._lock:
                self.statuses[status] += 1


def read_steadily(url: str, path: str, seconds: float) -> list[float]:
    """Reads `path` from READER every READ_EVERY seconds; the time each took."""
    conn, times = connection(url, READER), []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        status = get(conn, path)
        if status != 200:
            raise SystemExit(f"the other client's read got {status}")
        times.append(time.monotonic() - started)
        time.sleep(max(0.0, READ_EVERY - (time.monotonic() - started)))
    return times


def phase(url: str, name: str, read_path: str, flood_path: str | None, args) -> dict:
    print(f"phase {name}: {args.seconds:g} s", file=sys.stderr, flush=True)
    if flood_path is None:
        times, statuses = read_steadily(url, read_path, args.seconds), Counter()
    else:
        with Flood(url, flood_path, args.connections) as flood:
            times = read_steadily(url, read_path, args.seconds)
        statuses = flood.statuses
    figures = {
        f"{name}_reads": len(times),
        f"{name}_read_p50_ms": ms(statistics.median(times)),
        f"{name}_read_p95_ms": ms(percentile(times, 95)),
        f"{name}_read_max_ms": ms(max(times)),
    }
    if flood_path is not None:
        total = sum(statuses.values())
        figures |= {
            f"{name}_flood_requests_per_s": total / args.seconds,
            f"{name}_flood_answered_200": statuses[200],
            f"{name}_flood_refused_429": statuses[429],
            f"{name}_flood_other": total - statuses[200] - statuses[429],
        }
    return figures


def run(args: argparse.Namespace, service) -> dict:
    import requests

    finished, live = store_games(service.database_url, service.data_dir, args.min_events, args.seed)
    body = {"type": "trick_and_snipers", "seats": [{"kind": "human", "name": "reader"}] * 3}
    game = requests.post(f"{service.url}/games", json=body, timeout=30).json()["id"]
    read_path = f"/games/{game}"
    figures = phase(service.url, "quiet", read_path, None, args)
    figures |= phase(service.url, "finished", read_path, f"/games/{finished}/audit", args)
    figures |= phase(service.url, "live", read_path, f"/games/{live}/audit", args)
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.start:
        print("--start is needed: the bench writes games into the service's store")
        return 2
    from bench.service import started_service

    with started_service({"RATE_LIMITS": "on"}) as service:
        figures = run(args, service)
    for name, value in figures.items():
        print(f"{name:36} {value:.1f}" if isinstance(value, float) else f"{name:36} {value}")
    ok = all(figures[f"{p}_read_p50_ms"] < GOAL_MEDIAN_MS for p in ("finished", "live"))
    print(
        f"goal: the other client's read median < {GOAL_MEDIAN_MS:.0f} ms under both floods:"
        f" {'PASS' if ok else 'FAIL'}"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
