"""`python -m bench.front_door`: what the front door of NODES=2 costs and shields, on one box.

1. Actions: `make run` as it comes (one box) against `make run NODES=2` through its front door,
   both started here and played alternately, round after round, by the same clients
   (bench/actions.py's four-human games): goal, NODES=2 >= 0.85x the one box's actions/s.
2. Held heads: through the NODES=2 front door, another client's reads (GET /games/{id}, from
   another loopback address) idle, then while 1,000 connections from one address hold a head
   that never ends: goal, every read 200 and p95 <= 1.5x the idle p95 + 20 ms.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

import requests

from bench import server_procs
from bench.actions import human_figures, run_humans
from bench.service import Service, started_service
from bench.stats import Progress, ms, percentile

GOAL_RATIO = 0.85
GOAL_HELD_FACTOR, GOAL_HELD_SLACK_MS = 1.5, 20.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.front_door", description=__doc__)
    p.add_argument("--clients", type=int, default=32, help="concurrent clients")
    p.add_argument("--games", type=int, default=60, help="4-human games per side per round")
    p.add_argument("--rounds", type=int, default=2, help="each side once per round")
    p.add_argument("--game", default="trick_and_snipers")
    p.add_argument("--held", type=int, default=1000, help="heads held open from one address")
    p.add_argument("--reads", type=int, default=400, help="reads timed in each held-heads phase")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", dest="json_path", help="also write the figures to this file")
    args = p.parse_args(argv)
    # What bench/actions.py's human games read from its arguments.
    args.players, args.policy, args.session_per_seat = 4, "first", False
    return args


def actions_rounds(args: argparse.Namespace, services: dict[str, Service]) -> dict[str, Any]:
    """Each side's actions/s per round, and the CPU per action of each part of the service in
    its best round (ms): where a side spends what the other does not."""
    rates: dict[str, list[float]] = {side: [] for side in services}
    cpu: dict[str, dict[str, float]] = {}
    for round_index in range(args.rounds):
        order = list(services) if round_index % 2 == 0 else list(reversed(services))
        for side in order:
            service = services[side]
            before = server_procs.cpu_by_kind(service.data_dir, service.pid)
            run = run_humans(args, service.url, args.games, f"{side} {round_index + 1}")
            used = server_procs.cpu_between(
                before, server_procs.cpu_by_kind(service.data_dir, service.pid)
            )
            figures = human_figures(run)
            if figures["actions_per_s"] > max(rates[side], default=0.0):
                cpu[side] = {k: round(1000 * v / run.actions, 3) for k, v in used.items() if v}
            rates[side].append(figures["actions_per_s"])
            print(f"[bench] {side}: {figures['actions_per_s']} actions/s, POST p99 "
                  f"{figures.get('post_p99_ms')} ms", file=sys.stderr)  # fmt: skip
    best = {side: max(values) for side, values in rates.items()}
    return {
        "actions_per_s": rates,
        "best_actions_per_s": best,
        "cpu_ms_per_action": cpu,
        "nodes_2_vs_one_box": round(best["nodes 2"] / best["one box"], 3),
    }


class SourceAdapter(requests.adapters.HTTPAdapter):
    """Connections from another loopback address: another client, to the front door."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = ("127.0.0.2", 0)
        super().init_poolmanager(*args, **kwargs)


def timed_reads(session: requests.Session, url: str, count: int) -> tuple[list[float], int]:
    latencies, failed = [], 0
    for _ in range(count):
        started = time.perf_counter()
        response = session.get(url, timeout=10)
        latencies.append(time.perf_counter() - started)
        failed += response.status_code != 200
    return sorted(latencies), failed


def hold_heads(port: int, count: int) -> list[socket.socket]:
    held = []
    with Progress(lambda elapsed: f"[held] {len(held)}/{count} heads open  {elapsed:.0f} s"):
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never ends
            held.append(sock)
    return held


def held_heads(args: argparse.Namespace, url: str) -> dict[str, Any]:
    body = {"type": args.game, "seats": [{"kind": "human", "name": "A"}] * 4, "options": {}}
    game = requests.post(f"{url}/games", json=body, timeout=10).json()["id"]
    other = requests.Session()
    other.mount("http://", SourceAdapter())
    read = f"{url}/games/{game}"
    timed_reads(other, read, 50)  # warm
    idle, idle_failed = timed_reads(other, read, args.reads)
    port = int(url.rsplit(":", 1)[1])
    held = hold_heads(port, args.held)
    try:
        busy, busy_failed = timed_reads(other, read, args.reads)
    finally:
        for sock in held:
            sock.close()
    idle_p95, busy_p95 = ms(percentile(idle, 95)), ms(percentile(busy, 95))
    return {
        "held_heads": args.held,
        "reads_idle_p95_ms": round(idle_p95, 2),
        "reads_held_p95_ms": round(busy_p95, 2),
        "reads_failed": idle_failed + busy_failed,
        "held_limit_ms": round(idle_p95 * GOAL_HELD_FACTOR + GOAL_HELD_SLACK_MS, 2),
    }


def goals(f: dict[str, Any]) -> list[tuple[str, bool]]:
    return [
        (
            f"NODES=2 actions/s >= {GOAL_RATIO}x one box: {f['nodes_2_vs_one_box']}",
            f["nodes_2_vs_one_box"] >= GOAL_RATIO,
        ),
        (
            f"{f['held_heads']} held heads: reads all 200 ({f['reads_failed']} failed), p95 "
            f"{f['reads_held_p95_ms']} ms <= {f['held_limit_ms']} ms",
            f["reads_failed"] == 0 and f["reads_held_p95_ms"] <= f["held_limit_ms"],
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with (
        started_service() as one_box,
        started_service({"NODES": "2", "MAX_STREAMS_PER_CLIENT": "0"}) as nodes,
    ):
        figures = actions_rounds(args, {"one box": one_box, "nodes 2": nodes})
        figures |= held_heads(args, nodes.url)
    results = goals(figures)
    print(json.dumps(figures, indent=2))
    for text, ok in results:
        print(f"goal: {text}: {'PASS' if ok else 'FAIL'}")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(figures | {"goals": results}, indent=2))
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
