"""Cardroom event-stream benchmark: delivery latency with many open streams.

    .venv/bin/python bench/stream.py --start --streams 200
    .venv/bin/python bench/stream.py --url http://127.0.0.1:8000

Scenario 1: --streams Server-Sent Event streams on --streams/4 four-human Trick & Snipers games
(one stream per seat token), all opened first; then --drivers threads play those games round
robin through the API. Delivery latency = arrival on a stream - the event's `recorded_at`
(stamped just before the commit, so it slightly overstates). The streams are read by one
thread with non-blocking sockets (HTTP/1.0, so no chunked framing), not 200 client threads.
Also reports the POST /actions latency while the streams are open.
"""

from __future__ import annotations

import argparse
import json
import random
import selectors
import socket
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.players import Api, expect, parse_time  # noqa: E402
from bench.service import started_service  # noqa: E402
from bench.stats import Counter, Progress, ms, percentile  # noqa: E402
from domain.templates import action_from_template  # noqa: E402

GOAL_P95_MS = 100.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the running service")
    p.add_argument("--start", action="store_true", help="start the service (embedded.run)")
    p.add_argument("--streams", type=int, default=200, help="open streams (4 per game)")
    p.add_argument("--drivers", type=int, default=4, help="threads playing the games")
    p.add_argument("--pace", type=float, default=0.0, help="pause after each action (s)")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


# --- streams ---------------------------------------------------------------------------------


class StreamReader:
    """Reads many SSE streams in one thread; records (latency s, open streams) per event."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.address = (parts.hostname, parts.port or 80)
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        self.open = 0
        self.samples: list[tuple[float, int]] = []
        self.errors = Counter()
        self.refused = 0
        self._stop = threading.Event()

    def open_stream(self, path: str) -> None:
        sock = socket.create_connection(self.address, timeout=10)
        sock.sendall(f"GET {path} HTTP/1.0\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise OSError("closed before the headers")
            head += chunk
        status = head.split(b" ", 2)[1]
        if status != b"200":
            self.refused += 1
            sock.close()
            raise OSError(f"stream refused: {head[:200]!r}")
        sock.setblocking(False)
        self.buffers[sock] = head.split(b"\r\n\r\n", 1)[1]
        self.selector.register(sock, selectors.EVENT_READ)
        self.open += 1

    def run(self) -> None:
        while not self._stop.is_set() and self.open:
            for key, _ in self.selector.select(timeout=0.2):
                self._read(key.fileobj)

    def _read(self, sock) -> None:
        try:
            chunk = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        arrived = time.time()
        if not chunk:
            self.selector.unregister(sock)
            sock.close()
            self.open -= 1
            return
        data = self.buffers[sock] + chunk
        *lines, rest = data.split(b"\n")
        self.buffers[sock] = rest
        for line in lines:
            if line.startswith(b"data: "):
                event = json.loads(line[6:])
                lag = arrived - parse_time(event["recorded_at"]).timestamp()
                self.samples.append((lag, self.open))

    def stop(self) -> None:
        self._stop.set()


def drive(api: Api, games: list[dict], rng: random.Random, pace: float, posts: list) -> None:
    """Plays the games round robin, one action per game per turn, until all are over."""
    active = list(games)
    while active:
        for game in list(active):
            state = api.call("GET", f"/games/{game['id']}")[0].json()
            if state["status"] == "finished" or not state["to_act"]:
                active.remove(game)
                continue
            seat = state["to_act"][0]
            token = game["tokens"][seat]
            mine = api.state(game["id"], token)
            action = action_from_template(rng.choice(mine["you"]["legal_actions"]), rng)
            response, seconds = api.call("POST", f"/games/{game['id']}/actions", token, json=action)
            if response.status_code == 201:
                posts.append(seconds)
            elif response.status_code != 409:  # another driver never shares a game
                expect(response, 201)
            if pace:
                time.sleep(pace)


def scenario_streams(args: argparse.Namespace, url: str) -> dict:
    api = Api(url)
    games = []
    for _ in range(max(1, args.streams // 4)):
        seats = [{"kind": "human", "name": f"p{i}"} for i in range(4)]
        created = api.create_game(seats)
        tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        games.append({"id": created["id"], "tokens": tokens, "version": created["version"]})
    reader = StreamReader(url)
    for game in games:
        for token in game["tokens"].values():
            reader.open_stream(
                f"/games/{game['id']}/events/stream?after={game['version']}&access_token={token}"
            )
    print(f"{reader.open} streams open on {len(games)} games", file=sys.stderr)
    reading = threading.Thread(target=reader.run, daemon=True)
    reading.start()
    posts: list[float] = []
    shares = [games[i :: args.drivers] for i in range(args.drivers)]

    def render(elapsed: float) -> str:
        lags = [lag for lag, _ in reader.samples]
        return (
            f"[streams] open {reader.open}  events delivered {len(lags)}  actions {len(posts)}"
            f"  p95 {ms(percentile(lags, 95)):.1f} ms  {elapsed:.0f} s"
        )

    started = time.perf_counter()
    with Progress(render):
        drivers = [
            threading.Thread(
                target=drive, args=(Api(url), share, random.Random(args.seed + i), args.pace, posts)
            )
            for i, share in enumerate(shares)
        ]
        for thread in drivers:
            thread.start()
        for thread in drivers:
            thread.join()
        reading.join(timeout=30)
    seconds = time.perf_counter() - started
    reader.stop()
    full = [lag for lag, open_ in reader.samples if open_ >= args.streams]
    lags = [lag for lag, _ in reader.samples]
    return {
        "streams": args.streams,
        "games": len(games),
        "events_delivered": len(lags),
        "delivered_with_all_streams_open": len(full),
        "delivery_p50_ms": ms(percentile(lags, 50)),
        "delivery_p95_ms": ms(percentile(lags, 95)),
        "delivery_p99_ms": ms(percentile(lags, 99)),
        "delivery_p95_all_open_ms": ms(percentile(full, 95)),
        "actions": len(posts),
        "actions_per_s": len(posts) / seconds,
        "post_p50_ms": ms(percentile(posts, 50)),
        "post_p95_ms": ms(percentile(posts, 95)),
        "refused_streams": reader.refused,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.start:
        with started_service() as service:
            figures = scenario_streams(args, service.url)
    else:
        figures = scenario_streams(args, args.url)
    for name, value in figures.items():
        print(f"{name:34} {value:.1f}" if isinstance(value, float) else f"{name:34} {value}")
    ok = figures["delivery_p95_ms"] < GOAL_P95_MS
    print(f"goal: delivery p95 < {GOAL_P95_MS:.0f} ms with {args.streams} streams open:"
          f" {'PASS' if ok else 'FAIL'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
