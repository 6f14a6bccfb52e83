"""What the front door of NODES=2 costs and shields, on one box: actions/s and CPU per action
of `make run` against `make run NODES=2` through its front door, played in turn by the actions
bench's four-human games; and another client's reads through it while `held` connections from
one address hold a head that never ends."""

from __future__ import annotations

import socket

from bench import actions
from bench.support import server_procs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api
from bench.support.service import Service, started_service
from bench.support.sides import alternate
from bench.support.stats import ms, percentile


def actions_rounds(s: Settings, services: dict[str, Service]) -> Figures:
    games = actions.BENCHMARK.resolved(False) | {"clients": s["clients"], "game": s["game"]}

    def side(name: str, service: Service, round_no: int) -> tuple[float, dict[str, float]]:
        before = server_procs.cpu_by_kind(service.data_dir, service.pid)
        done = actions.run_humans(games, service.url, s["games"], f"{name} {round_no}")
        used = server_procs.cpu_between(
            before, server_procs.cpu_by_kind(service.data_dir, service.pid)
        )
        per_action = {k: round(1000 * v / max(1, done.actions), 3) for k, v in used.items() if v}
        return round(done.actions / done.seconds, 1), per_action

    runs = alternate(services, s["rounds"], side)
    best = {name: max(rounds, key=lambda r: r[0]) for name, rounds in runs.items()}
    return {
        "actions_per_s": {name: [rate for rate, _ in rounds] for name, rounds in runs.items()},
        "cpu_ms_per_action": {name: cpu for name, (_, cpu) in best.items()},
        "nodes_2_vs_one_box": round(best["nodes 2"][0] / best["one box"][0], 3),
    }


def timed_reads(api: Api, path: str, count: int) -> tuple[list[float], int]:
    answers = [api.call("GET", path) for _ in range(count)]
    return [took for _, took in answers], sum(r.status_code != 200 for r, _ in answers)


def held_heads(s: Settings, url: str) -> Figures:
    body = {"type": s["game"], "seats": [{"kind": "human", "name": "A"}] * 4, "options": {}}
    other = Api(url, source="127.0.0.2")
    read = f"/games/{other.json('POST', '/games', json=body)['id']}"
    timed_reads(other, read, 50)  # warm
    idle, idle_failed = timed_reads(other, read, s["reads"])
    held: list[socket.socket] = []
    try:
        for _ in range(s["held"]):
            held.append(socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), 10))
            held[-1].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never ends
        busy, busy_failed = timed_reads(other, read, s["reads"])
    finally:
        for sock in held:
            sock.close()
    idle_p95, busy_p95 = ms(percentile(idle, 95)), ms(percentile(busy, 95))
    return {"reads_idle_p95_ms": round(idle_p95, 2), "reads_held_p95_ms": round(busy_p95, 2),
            "reads_failed": idle_failed + busy_failed,
            "held_over_limit_ms": round(busy_p95 - (1.5 * idle_p95 + 20), 2)}  # fmt: skip


def run(context: Context, s: Settings) -> Figures:
    with started_service({"NODES": "2", "MAX_STREAMS_PER_CLIENT": "0"}) as nodes:
        services = {"one box": context.require_service(), "nodes 2": nodes}
        return actions_rounds(s, services) | held_heads(s, nodes.url)


BENCHMARK = Benchmark(
    name="front_door",
    about="`NODES=2` through its front door against `make run`, and heads held open",
    run=run,
    needs_service=True,
    settings={"clients": (32, 4), "games": (60, 4), "rounds": (2, 1), "game": "trick_and_snipers",
        "held": (1000, 50), "reads": (400, 20)},
    goals=[
        Goal("nodes_2_vs_one_box", ">=", 0.85, about="`NODES=2` through its front door: actions/s "
            ">= 0.85 x `make run` as it comes (32 clients, four-human Trick & Snipers)"),
        Goal("reads_failed", "==", 0, about="1,000 heads held open from one address: another "
            "client's reads all 200"),
        Goal("held_over_limit_ms", "<=", 0, "ms", "and their p95 <= 1.5 x idle + 20 ms"),
    ],
)  # fmt: skip
