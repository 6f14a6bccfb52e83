"""Two nodes on one machine: delivery through the other node, and a failover that loses nothing.

    .venv/bin/python -m bench.two_nodes --games 20 --streams-per-game 10 --seconds 30

Node A is `make run` with Pushpin in front (embedded Postgres and Redis, its API, its worker);
node B is a second API behind a second Pushpin on the same Postgres and Redis. A's worker
publishes every committed event to both Pushpins. --games three-human tables are played through
node B at a human pace (bench/paced_play.py), while --streams-per-game spectators per table
stream from Pushpin A. Delivery latency = arrival on a stream - the event's `recorded_at`.
Halfway, Pushpin A is killed (SIGKILL, with everything it started): each client reconnects to
B with `Last-Event-ID`; at the end every client's versions must be each event of its game
once, in order (lost = 0). Prints progress and the figures; exits 1 if a goal fails.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests

from bench.paced_play import PacedPlay
from bench.players import parse_time
from bench.service import second_api, serving, started_service
from bench.stats import percentile
from embedded.ports import free_port
from embedded.pushpin import PushpinSetup, command, pushpin_key
from events.operations.settings import load_settings
from testing.sse import Stream

GOAL_P95_MS = 250.0


class Watcher(threading.Thread):
    """One spectator's stream: from Pushpin A, then (once A is gone) from B, resuming."""

    def __init__(self, urls: list[str], game_id: str, latencies: list[float]) -> None:
        super().__init__(daemon=True)
        self.urls, self.game_id, self.latencies = urls, game_id, latencies
        self.versions: list[int] = []
        self.stopping = False

    def run(self) -> None:
        for url in self.urls:
            try:
                self._read(url)
            except (OSError, http.client.HTTPException):
                pass
            if self.stopping:
                return

    def _read(self, url: str) -> None:
        headers = {"Last-Event-ID": str(self.versions[-1])} if self.versions else {}
        opened = time.time()  # events recorded before are the backlog, not a delivery
        with Stream(f"{url}/games/{self.game_id}/events/stream", headers, timeout=30) as stream:
            if stream.status != 200:
                return
            for event in stream.events():
                if self.stopping:
                    return
                data = event["data"]
                self.versions.append(data["version"])
                recorded = parse_time(data["recorded_at"]).timestamp()
                if recorded >= opened:
                    self.latencies.append(time.time() - recorded)


def kill_pushpin(port: int) -> None:
    """SIGKILL to the Pushpin listening on `port`, and to every process its runner started."""
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if "pushpin --config" in cmdline and f":{port}\n" in _config(cmdline):
            for each in [*proc.children(recursive=True), proc]:
                try:
                    each.kill()
                except psutil.NoSuchProcess:  # it ended as the others did
                    pass


def _config(cmdline: str) -> str:
    path = cmdline.split("--config=")[-1].split()[0]
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--streams-per-game", type=int, default=10)
    p.add_argument("--seconds", type=float, default=30.0, help="of play; A dies halfway")
    p.add_argument("--pace", type=float, default=3.0, help="s between a table's actions")
    args = p.parse_args()
    control_b = free_port()
    settings = {"FANOUT": "pushpin", "PUSHPIN_URLS": f"http://127.0.0.1:{control_b}",
                "MAX_STREAMS_PER_CLIENT": "0"}  # fmt: skip
    with started_service(settings) as node_a:
        port_a = int(node_a.url.rsplit(":", 1)[1])
        settings_b = {"TRUSTED_PROXIES": "1", "RATE_LIMITS": "off", "MAX_STREAMS_PER_CLIENT": "0"}
        with second_api(node_a, settings_b) as api_b:
            directory = Path(tempfile.mkdtemp(prefix="cardroom-pushpin-b-"))
            # Node A's signing key, which API B shares: Pushpin B signs with a key derived from it.
            key = pushpin_key(load_settings(dict(os.environ, DATA_DIR=node_a.data_dir)))
            setup = PushpinSetup(directory, free_port(), api_b.split("//")[1], control_b, key)
            with serving(command(setup), setup.port, dict(os.environ)) as pushpin_b:
                return run(args, node_a.url, pushpin_b.url, port_a)


def run(args: argparse.Namespace, node_a: str, node_b: str, port_a: int) -> int:
    play = PacedPlay(node_b, "trick_and_snipers", "basic", args.pace, 4, seed=1)
    tables = play.create_tables(args.games)
    latencies: list[float] = []
    watchers = [
        Watcher([node_a, node_b], table.id, latencies)
        for table in tables
        for _ in range(args.streams_per_game)
    ]
    for watcher in watchers:
        watcher.start()
    time.sleep(2)
    print(f"[two nodes] {len(watchers)} streams on A, {args.games} tables played through B")
    play.start()
    started = time.monotonic()
    killed_at = None
    while time.monotonic() - started < args.seconds:
        time.sleep(5)
        elapsed = time.monotonic() - started
        if killed_at is None and elapsed >= args.seconds / 2:
            kill_pushpin(port_a)
            killed_at = len(latencies)
            print(f"[two nodes] {elapsed:.0f} s: Pushpin A killed; clients move to B")
        print(f"[two nodes] {elapsed:.0f} s: {len(latencies)} deliveries")
    play.stop()
    time.sleep(3)  # the last events arrive
    lost, duplicated = 0, 0
    for watcher in watchers:
        watcher.stopping = True
        head = requests.get(f"{node_b}/games/{watcher.game_id}", timeout=10).json()["version"]
        seen = watcher.versions
        duplicated += len(seen) - len(set(seen))
        lost += len(set(range(1, head + 1)) - set(seen))
    before = latencies[:killed_at] if killed_at else latencies
    figures = {
        "streams": len(watchers),
        "deliveries": len(latencies),
        "delivery_p50_ms": round(1000 * percentile(before, 50), 1),
        "delivery_p95_ms": round(1000 * percentile(before, 95), 1),
        "events_lost": lost,
        "events_duplicated": duplicated,
    }
    for name, value in figures.items():
        print(f"{name:<22} {value}")
    goals = [
        (f"delivery p95 through the other node < {GOAL_P95_MS:.0f} ms",
         figures["delivery_p95_ms"] < GOAL_P95_MS),
        ("failover loses 0 events and repeats none", lost == 0 and duplicated == 0),
    ]  # fmt: skip
    for text, ok in goals:
        print(f"goal: {text}: {'PASS' if ok else 'FAIL'}")
    return 0 if all(ok for _, ok in goals) else 1


if __name__ == "__main__":
    socket.setdefaulttimeout(30)
    sys.exit(main())
