"""Players' notice streams (`GET /me/stream`) while their tables play: how soon a notice
reaches its player.

    .venv/bin/python -m bench.notices --start                  # a service as make run starts it
    .venv/bin/python -m bench.notices --start --players 2000 --seconds 60 --moves 40

Makes --players players and seats them in pairs at Trick & Snipers tables (the two players and
a basic bot: each pair's first player creates the table with a seat kept for the second, who
joins with its key), opens one `/me/stream` per player (`?access_token=`, in a reader process
of its own: bench/sse_reader.py), then plays the players' moves through their keys at about
--moves a second, spread over the tables, for --seconds. Each notice's delivery time is its
arrival at the reader minus its `at` (written in the commit that caused it).

Goal: notice delivery p95 < 250 ms with 2,000 players' streams open.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from pathlib import Path

from bench.stats import Progress, ms, percentile

GOAL_P95_MS = 250.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (as make run)")
    p.add_argument("--url", default="http://127.0.0.1:8000", help="a running service")
    p.add_argument("--players", type=int, default=2000)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--moves", type=float, default=40.0, help="players' moves per second")
    p.add_argument("--drivers", type=int, default=4, help="threads making the moves")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the figures to this file too")
    return p.parse_args(argv)


def seat_players(session, url: str, count: int) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """`count` players' keys, and their tables (id, the two keys by seat)."""
    keys: list[str] = []
    tables: list[tuple[str, list[str]]] = []
    for index in range(0, count - count % 2, 2):
        pair = [_player(session, url, f"p{index + i}") for i in range(2)]
        first, second = pair
        seats = [{"kind": "human", "player": "me"},
                 {"kind": "open", "player": second[0]},
                 {"kind": "bot", "level": "basic"}]  # fmt: skip
        game = _ok(session.post(f"{url}/games", json={"type": "trick_and_snipers", "seats": seats},
                                headers=_auth(first[1])))  # fmt: skip
        _ok(session.post(f"{url}/games/{game['id']}/seats/1/join", json={},
                         headers=_auth(second[1])))  # fmt: skip
        keys += [first[1], second[1]]
        tables.append((game["id"], [first[1], second[1]]))
        if index % 200 == 0:
            print(f"\rseating players: {index + 2}/{count}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return keys, tables


def _player(session, url: str, name: str) -> tuple[str, str]:
    body = _ok(session.post(f"{url}/players", json={"name": name}))
    return body["id"], body["key"]


def _auth(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def _ok(response) -> dict:
    if response.status_code >= 300:
        raise SystemExit(f"{response.request.method} {response.url}: {response.text}")
    return response.json()


class Driver:
    """Makes the players' moves, at most one per table at a time, at an overall rate."""

    def __init__(self, url: str, tables: list[tuple[str, list[str]]], rate: float, seed: int):
        self.url = url
        self.tables = tables
        self.interval = 1.0 / rate
        self.rng = random.Random(seed)
        self.moves = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def run(self, drivers: int) -> list[threading.Thread]:
        threads = [threading.Thread(target=self._drive, args=(i, drivers), daemon=True)
                   for i in range(drivers)]  # fmt: skip
        for thread in threads:
            thread.start()
        return threads

    def _drive(self, index: int, drivers: int) -> None:
        import requests

        from domain.kit.templates import action_from_template

        session, rng = requests.Session(), random.Random(index)
        mine = self.tables[index::drivers]
        pause = self.interval * drivers
        while not self.stop.is_set():
            game_id, keys = rng.choice(mine)
            for key in keys:
                view = session.get(f"{self.url}/games/{game_id}", headers=_auth(key)).json()
                legal = view.get("you", {}).get("legal_actions") or []
                if legal:
                    action = action_from_template(legal[0], rng)
                    session.post(f"{self.url}/games/{game_id}/actions", json=action,
                                 headers=_auth(key))  # fmt: skip
                    with self.lock:
                        self.moves += 1
                    break
            self.stop.wait(pause)


def run(args: argparse.Namespace, url: str) -> dict:
    import requests

    from bench.sse_reader import ReaderProcess

    session = requests.Session()
    keys, tables = seat_players(session, url, args.players)
    reader = ReaderProcess(url)
    reader.open([f"/me/stream?access_token={key}" for key in keys], concurrency=50)
    deadline = time.monotonic() + 120
    while reader.status().open_now < len(keys) and time.monotonic() < deadline:
        time.sleep(0.5)
    opened = reader.status().open_now
    print(f"{opened} streams open", file=sys.stderr)
    driver = Driver(url, tables, args.moves, args.seed)
    threads = driver.run(args.drivers)
    progress = Progress(
        lambda t: f"{t:5.0f} s: {driver.moves} moves, {reader.status().events} notices"
    )
    with progress:
        time.sleep(args.seconds)
    driver.stop.set()
    for thread in threads:
        thread.join(timeout=30)
    time.sleep(1.0)  # the last notices arrive
    final = reader.stop()
    lags = list(final.lags)
    return {
        "players": len(keys),
        "tables": len(tables),
        "streams_open": opened,
        "moves": driver.moves,
        "notices_timed": len(lags),
        "notices_failed_streams": sum(final.failed.values()),
        "delivery_p50_ms": ms(percentile(lags, 50)),
        "delivery_p95_ms": ms(percentile(lags, 95)),
        "delivery_max_ms": ms(max(lags)) if lags else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.start:
        from bench.service import started_service

        # Every stream comes from this one address: no cap per client.
        with started_service({"MAX_STREAMS_PER_CLIENT": "0"}) as service:
            figures = run(args, service.url)
    else:
        figures = run(args, args.url)
    for name, value in figures.items():
        print(f"{name:28} {value:.1f}" if isinstance(value, float) else f"{name:28} {value}")
    ok = (
        figures["streams_open"] == figures["players"] >= 2000
        and figures["notices_timed"] > 0
        and figures["delivery_p95_ms"] < GOAL_P95_MS
    )
    print(f"goal: notice delivery p95 < {GOAL_P95_MS:.0f} ms with 2,000 players' streams open:"
          f" {'PASS' if ok else 'FAIL'}")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
