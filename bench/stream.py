"""Cardroom event-stream benchmark: delivery latency with many open streams.

    .venv/bin/python -m bench.stream --start --streams 200
    .venv/bin/python -m bench.stream --url http://127.0.0.1:8000
    .venv/bin/python -m bench.stream --start --capacity --streams 10000 --games 100 --pace 3
    .venv/bin/python -m bench.stream --start --capacity --streams 0 --games 100 --slow-clients 1000

Scenario 1: --streams Server-Sent Event streams on --streams/4 four-human Trick & Snipers games
(one stream per seat token), all opened first; then --drivers threads play those games round
robin through the API. Delivery latency = arrival on a stream - the event's `recorded_at`
(stamped just before the commit, so it slightly overstates). The streams are read as in
scenario 2, by bench/sse_reader.py's process (HTTP/1.0, so no chunked framing).
Also reports the POST /actions latency while the streams are open.

Scenario 2 (--capacity): --games four-human St Patrick tables (--game-type; long games, the
clients playing as the `basic` bot) played through the API by --drivers threads at a human
pace, each table acting every --pace s (bench/paced_play.py; a game that ends is replaced).
First each table plays a random number of actions below --spread-actions at once, so that
rounds end (and the worker deals the next) at different times, as at tables that did not all
sit down together. The default, about one game, also has games end (and be replaced) at a
steady rate from the first phase on: with less, no game ends in the quiet phase, and the
streams phase alone pays for creating games. One run, in phases of --phase-seconds each,
after --warmup-seconds:
  1. no streams: POST /actions latency, and the RSS of the server processes (gunicorn master
     and workers, RQ workers) at its end;
  2. (--streams N > 0) N streams opened, --open-concurrency handshakes at a time, per game its
     4 seat streams (?access_token=) and N/games - 4 spectators: then the same play again,
     with delivery latency (arrival - recorded_at, events recorded after their stream
     opened), POST latency, RSS and bytes per stream;
  3. (--slow-clients N > 0) N more sockets that each send one header line every
     --slow-interval s and never finish their request: POST latency against the phase
     before, and any request that failed or timed out.
The streams are read by an asyncio client in a process of its own (bench/sse_reader.py).
With --start the service gets MAX_STREAMS=--max-streams (the server's capacity) and
MAX_STREAMS_PER_CLIENT=0 (every stream comes from one address), and --fanout says who holds the
streams: the API's workers (the default, as `make run` comes), or Pushpin behind HAProxy's front
door; --nodes 2 starts `make run NODES=2` (the front door, Pushpin, two API nodes), and the
capacity run then adds the CPU each part of the service used. --json writes the figures.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from bench import server_procs
from bench.paced_play import (
    PacedPlay,
    Table,
    Timed,
    failures_between,
    posts_between,
    probes_between,
)
from bench.players import Api, PlayedTable, take_turn
from bench.service import started_service
from bench.sse_reader import ReaderProcess, Status
from bench.stats import Progress, ms, percentile

GOAL_P95_MS = 100.0
GOAL_CAPACITY_P95_MS = 250.0  # delivery, with all the streams open
GOAL_POST_P99_RATIO = 2.0  # POST p99 with the streams (or slow clients) / without
REPLACEMENT_WINDOW_S = 2.0  # after a game's replacement: its end, the new game, its streams
GOAL_RSS_BYTES = 2 * 1024**3  # every server process together, with all the streams open
SCENARIO_TIMEOUT = 30.0  # s for scenario 1's streams to open, and to end after their games


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the running service")
    p.add_argument("--start", action="store_true", help="start the service (embedded.run)")
    p.add_argument("--streams", type=int, default=200, help="open streams (4 per game)")
    p.add_argument("--drivers", type=int, default=4, help="threads playing the games")
    p.add_argument(
        "--pace",
        type=float,
        default=None,
        help="pause after each action (s; default 0); --capacity: s between a table's actions"
        " (default 3)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--fanout", choices=["embedded", "pushpin"], default="embedded",
        help="with --start: the API's workers, or Pushpin behind the front door, hold the streams",
    )  # fmt: skip
    p.add_argument("--nodes", type=int, default=1, help="with --start: API nodes (NODES)")
    p.add_argument("--json", dest="json_path", help="also write the figures to this file")
    c = p.add_argument_group("--capacity (scenario 2)")
    c.add_argument("--capacity", action="store_true", help="run scenario 2")
    c.add_argument("--games", type=int, default=100, help="tables played at the pace")
    c.add_argument("--game-type", default="st_patrick")
    c.add_argument("--policy", default="basic", help="how the clients choose (players.py)")
    c.add_argument(
        "--spread-actions",
        type=int,
        default=300,
        help="play each table up to this many actions first, so their rounds and games end at"
        " different times (300: about one St Patrick game of basic bots, 290 actions for four;"
        " 40: about one round; 0: all in step)",
    )
    c.add_argument("--phase-seconds", type=float, default=60.0, help="length of each phase")
    c.add_argument("--warmup-seconds", type=float, default=10.0, help="play before phase 1")
    c.add_argument("--open-concurrency", type=int, default=200, help="stream handshakes at once")
    c.add_argument("--max-streams", type=int, default=11000, help="MAX_STREAMS of the server")
    c.add_argument(
        "--reader-nice",
        type=int,
        default=0,
        help="niceness of the stream reader (19: it yields the CPU to the server it measures)",
    )
    c.add_argument("--slow-clients", type=int, default=0, help="sockets that never finish")
    c.add_argument("--slow-interval", type=float, default=4.0, help="s between their lines")
    c.add_argument("--keep-log", help="copy the started service's log here at the end")
    return p.parse_args(argv)


# --- streams ---------------------------------------------------------------------------------


def drive(api: Api, tables: list[PlayedTable], pace: float, posts: list[float]) -> None:
    """Plays the tables round robin, one action per table per turn, until all are over."""
    active = list(tables)
    while active:
        for table in list(active):
            seat = table.seat_to_act()
            if table.finished:
                active.remove(table)
            elif seat is None:  # a worker's step is under way: look again next turn
                table.refresh(api)
            else:
                posts.append(take_turn(api, table, seat).post)
                if pace:
                    time.sleep(pace)


def scenario_streams(args: argparse.Namespace, url: str) -> dict:
    api = Api(url)
    tables = [
        PlayedTable.create(api, random.Random(args.seed + i), name="p")
        for i in range(max(1, args.streams // 4))
    ]
    paths = [
        f"/games/{table.id}/events/stream?after={table.state['version']}&access_token={token}"
        for table in tables
        for token in table.tokens.values()
    ]
    reader = ReaderProcess(url)
    reader.open(paths, concurrency=50)
    status = wait_for(reader, lambda s: s.pending == 0, SCENARIO_TIMEOUT)
    print(f"{status.open_now} streams open on {len(tables)} games", file=sys.stderr)
    posts: list[float] = []
    shares = [tables[i :: args.drivers] for i in range(args.drivers)]

    def render(elapsed: float) -> str:
        s = reader.status()
        return (
            f"[streams] open {s.open_now}  events delivered {s.events}  actions {len(posts)}"
            f"  recent p95 {ms(s.recent_p95):.1f} ms  {elapsed:.0f} s"
        )

    started = time.perf_counter()
    with Progress(render):
        drivers = [
            threading.Thread(target=drive, args=(Api(url), share, args.pace, posts))
            for share in shares
        ]
        for thread in drivers:
            thread.start()
        for thread in drivers:
            thread.join()
        wait_for(reader, lambda s: s.open_now == 0, SCENARIO_TIMEOUT)  # the last events
    seconds = time.perf_counter() - started
    final = reader.stop()
    lags = list(final.lags)
    full = [lag for lag, at in zip(final.lags, final.arrivals, strict=True)
            if at < final.first_ended_at]  # fmt: skip
    return {
        "streams": args.streams,
        "games": len(tables),
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
        "refused_streams": sum(final.refusals.values()) + sum(final.failed.values()),
    }


def wait_for(reader: ReaderProcess, done: Callable[[Status], bool], timeout: float) -> Status:
    """The reader's status once `done` says so, or when `timeout` s have passed."""
    deadline = time.monotonic() + timeout
    status = reader.status()
    while not done(status) and time.monotonic() < deadline:
        time.sleep(0.2)
        status = reader.status()
    return status


# --- capacity: thousands of streams while tables play at a human pace -------------------------


@dataclass
class Phase:
    name: str
    start: float  # time.time()
    end: float
    open_min: int | None  # streams open, the fewest seen (sampled every second)
    open_first: int | None  # streams open at the first sample
    open_max: int | None  # streams open, the most seen
    slow_min: int | None  # slow sockets connected, the fewest seen
    busy_pct: float  # the machine's CPU, all processes
    steal_pct: float  # the machine's CPU taken by the hypervisor for others
    server_cpu_pct: float  # the server's processes (gunicorn, RQ workers), % of one CPU
    reader_cpu_pct: float  # the stream reader's process, % of one CPU


@dataclass
class Sampler:
    """The reader's latest status, asked once a second by the phase loops."""

    reader: ReaderProcess
    last: Status = field(default_factory=Status)

    def sample(self) -> Status:
        self.last = self.reader.status()
        return self.last


def stream_paths(play: PacedPlay, streams: int) -> list[str]:
    """Per table its seats' streams (with their tokens), then spectators, from its current
    version; shuffled, so seats and spectators open throughout."""
    tables = play.tables
    per_table, extra = divmod(streams, len(tables))
    paths: list[str] = []
    for i, table in enumerate(tables):
        paths += table_paths(table, per_table + (1 if i < extra else 0))
    random.Random(1).shuffle(paths)
    return paths


def table_paths(table: Table, count: int) -> list[str]:
    """`count` streams of one table from its current version: its seats', then spectators."""
    base = f"/games/{table.id}/events/stream?after={table.state['version']}"
    seats = [f"{base}&access_token={table.tokens[s]}" for s in sorted(table.tokens)]
    return seats[:count] + [base] * max(0, count - len(seats))


@dataclass
class Reopened:
    """The streams asked for replacement games, as many as the games that ended took."""

    streams: int = 0


def reopen_on_replace(
    play: PacedPlay, sampler: Sampler, streams: int, concurrency: int
) -> Reopened:
    """A game that ends takes its streams with it; its replacement gets as many, so that a
    long phase keeps the streams it started with."""
    per_table = streams // len(play.tables)
    reopened = Reopened()

    def reopen(table: Table) -> None:
        paths = table_paths(table, per_table)
        reopened.streams += len(paths)
        sampler.reader.open(paths, concurrency, ended=table.replaces)

    play.on_replace = reopen
    return reopened


def slowest_near(
    posts: list[Timed], moments: list[float], window: float = REPLACEMENT_WINDOW_S
) -> dict[str, float]:
    """Whether the slowest POSTs (the 1 % above the p99) came in the `window` seconds after
    one of `moments` (a game's replacement, and the opening of its streams): the share of them
    that did, and the share of all POSTs sent in such windows (equal shares: the moments do
    not matter)."""
    if not posts:
        return {"slowest_share": float("nan"), "all_share": float("nan")}
    starts = sorted(moments)

    def near(at: float) -> bool:
        return any_within(starts, at - window, at)

    p99 = percentile([t.seconds for t in posts], 99)
    slowest = [t for t in posts if t.seconds > p99]
    share = sum(near(t.at) for t in slowest) / max(1, len(slowest))
    return {
        "slowest_share": round(share, 3),
        "all_share": round(sum(near(t.at) for t in posts) / len(posts), 3),
    }


def any_within(ordered: list[float], low: float, high: float) -> bool:
    """Whether the sorted `ordered` holds a moment from `low` to `high`."""
    i = bisect.bisect_left(ordered, low)
    return i < len(ordered) and ordered[i] <= high


def kept_open(requested: int, f: dict[str, Any]) -> bool:
    """All the streams open at once in the phase, none given up, and none ended by the server
    but those of games that ended (each replaced by a game with as many). A sample, once a
    second, can fall between a game's end and its replacement's handshakes: a game the
    worker's scoring ends is replaced only when its driver next looks, up to a pace later. So
    neither the fewest open nor those at the phase's start decide."""
    return (
        (f["streams_open_max_during_phase"] or 0) >= requested
        and f["streams_dropped"] == 0
        and not f["streams_given_up"]
    )


def open_streams(sampler: Sampler, paths: list[str], concurrency: int) -> float:
    """Opens them all (refused ones are retried by the reader); the seconds it took."""
    started = time.perf_counter()
    sampler.reader.open(paths, concurrency)

    def render(elapsed: float) -> str:
        st = sampler.last
        rate = st.opened / elapsed if elapsed else 0.0
        return (
            f"[open] {st.opened}/{len(paths)}  open now {st.open_now}"
            f"  refused {sum(st.refusals.values())}  given up {sum(st.failed.values())}"
            f"  {rate:.0f}/s  {elapsed:.0f} s"
        )

    with Progress(render):
        while sampler.sample().pending:
            time.sleep(0.5)
    return time.perf_counter() - started


def run_phase(name: str, seconds: float, play: PacedPlay, sampler: Sampler | None) -> Phase:
    start = time.time()
    busy, steal = server_procs.machine_busy_seconds(), server_procs.machine_steal_seconds()
    server = server_procs.app_processes()
    reader = [psutil.Process(sampler.reader.process.pid)] if sampler else []
    server_cpu, reader_cpu = server_procs.cpu_seconds(server), server_procs.cpu_seconds(reader)
    seen: list[Status] = []

    def render(elapsed: float) -> str:
        posts = posts_between(play.log, start, time.time())
        line = (
            f"[{name}] {elapsed:.0f}/{seconds:.0f} s  actions {len(posts)}"
            f"  POST p50 {ms(percentile(posts, 50)):.0f} ms p99 {ms(percentile(posts, 99)):.0f} ms"
            f"  failures {len(failures_between(play.log, start, time.time()))}"
        )
        if sampler is not None:
            st = sampler.last
            line += (
                f"  streams open {st.open_now}  events {st.events}"
                f"  p95 {ms(st.recent_p95):.0f} ms  slow {st.slow_connected}"
            )
        return line

    with Progress(render):
        while time.time() < start + seconds:
            if sampler is not None:
                seen.append(sampler.sample())
            time.sleep(min(1.0, max(0.0, start + seconds - time.time())))
    end = time.time()
    cpus = os.cpu_count() or 1
    busy_pct = 100 * (server_procs.machine_busy_seconds() - busy) / ((end - start) * cpus)
    steal_pct = 100 * (server_procs.machine_steal_seconds() - steal) / ((end - start) * cpus)
    server_pct = 100 * server_procs.cpu_used(server_cpu, server_procs.cpu_seconds(server))
    reader_pct = 100 * server_procs.cpu_used(reader_cpu, server_procs.cpu_seconds(reader))
    return Phase(
        name,
        start,
        end,
        # Streams being opened count: a replaced game's are, for the moment between its
        # old streams' end and its new ones' handshake.
        open_min=min((st.open_now + st.pending for st in seen), default=None),
        open_first=seen[0].open_now + seen[0].pending if seen else None,
        open_max=max((st.open_now for st in seen), default=None),
        slow_min=min((st.slow_connected for st in seen), default=None),
        busy_pct=round(busy_pct, 1),
        steal_pct=round(steal_pct, 1),
        server_cpu_pct=round(server_pct / (end - start), 1),
        reader_cpu_pct=round(reader_pct / (end - start), 1),
    )


def connect_slow_clients(sampler: Sampler, count: int, path: str, interval: float) -> None:
    sampler.reader.slow_clients(count, path, interval)

    def render(elapsed: float) -> str:
        return f"[slow clients] connected {sampler.last.slow_connected}/{count}  {elapsed:.0f} s"

    deadline = time.monotonic() + 60
    with Progress(render):
        while sampler.sample().slow_connected < count and time.monotonic() < deadline:
            time.sleep(0.5)


def server_rss() -> tuple[int, list[int]]:
    """RSS of the server's processes together (this bench's descendants running gunicorn or
    the RQ workers), and their pids (a changed set means a worker was restarted)."""
    procs = server_procs.app_processes()
    return server_procs.total_rss(procs), sorted(p.pid for p in procs)


def phase_figures(prefix: str, phase: Phase, play: PacedPlay) -> dict[str, Any]:
    posts = posts_between(play.log, phase.start, phase.end)
    timed = [t for t in play.log.posts if phase.start <= t.at < phase.end]
    replacements = play.log.replacements
    near = slowest_near(timed, replacements)
    probes = probes_between(play.log, phase.start, phase.end)
    failures = failures_between(play.log, phase.start, phase.end)
    return {
        f"{prefix}_actions": len(posts),
        f"{prefix}_actions_per_s": round(len(posts) / (phase.end - phase.start), 1),
        f"{prefix}_post_p50_ms": round(ms(percentile(posts, 50)), 1),
        f"{prefix}_post_p99_ms": round(ms(percentile(posts, 99)), 1),
        f"{prefix}_post_max_ms": round(ms(max(posts, default=float("nan"))), 1),
        f"{prefix}_new_connection_p99_ms": round(ms(percentile(probes, 99)), 1),
        f"{prefix}_failed_requests": len(failures),
        f"{prefix}_machine_busy_pct": phase.busy_pct,
        f"{prefix}_machine_steal_pct": phase.steal_pct,
        f"{prefix}_server_cpu_pct": phase.server_cpu_pct,
        f"{prefix}_reader_cpu_pct": phase.reader_cpu_pct,
        f"{prefix}_games_replaced": sum(phase.start <= at < phase.end for at in replacements),
        f"{prefix}_slowest_posts_near_replacements_share": near["slowest_share"],
        f"{prefix}_posts_near_replacements_share": near["all_share"],
        f"{prefix}_window": [round(phase.start, 3), round(phase.end, 3)],
    }


def delivery_figures(final: Status, phase: Phase) -> dict[str, Any]:
    lags = [
        lag
        for at, lag in zip(final.arrivals, final.lags, strict=True)
        if phase.start <= at < phase.end
    ]
    return {
        "delivered_events": len(lags),
        "delivery_p50_ms": round(ms(percentile(lags, 50)), 1),
        "delivery_p95_ms": round(ms(percentile(lags, 95)), 1),
        "delivery_p99_ms": round(ms(percentile(lags, 99)), 1),
        "delivery_max_ms": round(ms(max(lags, default=float("nan"))), 1),
    }


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else float("nan")


class CapacityRun:
    """Phases 1-3 of the docstring, in one run. `managed`: the bench started the service, so
    its processes are ours to measure."""

    def __init__(self, args: argparse.Namespace, url: str, managed: bool) -> None:
        self.args = args
        self.managed = managed
        pace = 3.0 if args.pace is None else args.pace
        self.play = PacedPlay(url, args.game_type, args.policy, pace, args.drivers, args.seed)
        reading = args.streams or args.slow_clients
        self.reader = ReaderProcess(url, args.reader_nice) if reading else None
        self.sampler = Sampler(self.reader) if self.reader else None
        self.figures: dict[str, Any] = {
            "game_type": args.game_type,
            "tables": args.games,
            "pace_s": pace,
            "drivers": args.drivers,
            "spread_actions": args.spread_actions,
            "phase_s": args.phase_seconds,
            "reader_nice": args.reader_nice,
            "load_avg_before": load_average(),
        }
        self.pids: list[int] = []
        self.rss_before = 0
        self.live: Phase | None = None  # the phase with every stream open

    def run(self) -> dict[str, Any]:
        print(f"[tables] creating {self.args.games} {self.args.game_type} games", file=sys.stderr)
        self.play.create_tables(self.args.games)
        self.play.spread(self.args.spread_actions)
        self.play.start()
        final = None
        try:
            run_phase("warm-up", self.args.warmup_seconds, self.play, None)
            previous = self.quiet_phase()
            if self.args.streams:
                previous = self.streams_phase(previous)
            if self.args.slow_clients:
                self.slow_phase(previous)
        finally:
            self.play.stop()
            final = self.reader.stop() if self.reader else None
        return self.closing_figures(final)

    def quiet_phase(self) -> Phase:
        quiet = run_phase("no streams", self.args.phase_seconds, self.play, self.sampler)
        self.figures |= phase_figures("quiet", quiet, self.play)
        if self.managed:
            self.rss_before, self.pids = server_rss()
            self.figures["server_rss_before_bytes"] = self.rss_before
        return quiet

    def streams_phase(self, quiet: Phase) -> Phase:
        assert self.sampler is not None
        paths = stream_paths(self.play, self.args.streams)
        # Before the opening, which takes seconds: games end meanwhile too.
        reopened = reopen_on_replace(
            self.play, self.sampler, self.args.streams, self.args.open_concurrency
        )
        seconds = open_streams(self.sampler, paths, self.args.open_concurrency)
        self.figures["open_seconds"] = round(seconds, 1)
        rss_open = server_rss()[0] if self.managed else 0
        live = run_phase("streams open", self.args.phase_seconds, self.play, self.sampler)
        self.figures |= streams_summary(self.args.streams, self.sampler.last, live)
        self.figures["streams_reopened"] = reopened.streams
        self.figures |= phase_figures("streams", live, self.play)
        self.figures["post_p99_ratio_streams"] = ratio(
            self.figures["streams_post_p99_ms"], self.figures["quiet_post_p99_ms"]
        )
        if self.managed:
            rss_with = max(rss_open, server_rss()[0])
            self.figures["server_rss_with_streams_bytes"] = rss_with
            per_stream = (rss_with - self.rss_before) / max(1, self.sampler.last.open_now)
            self.figures["server_bytes_per_stream"] = round(per_stream)
        self.live = live
        return live

    def slow_phase(self, previous: Phase) -> None:
        assert self.sampler is not None
        path = f"/games/{self.play.tables[0].id}"
        connect_slow_clients(self.sampler, self.args.slow_clients, path, self.args.slow_interval)
        slow = run_phase("slow clients", self.args.phase_seconds, self.play, self.sampler)
        self.figures |= phase_figures("slow", slow, self.play)
        prefix = "streams" if previous is self.live else "quiet"
        self.figures["slow_compared_with"] = previous.name
        self.figures["post_p99_ratio_slow"] = ratio(
            self.figures["slow_post_p99_ms"], self.figures[f"{prefix}_post_p99_ms"]
        )
        self.figures["new_connection_p99_ratio_slow"] = ratio(
            self.figures["slow_new_connection_p99_ms"],
            self.figures[f"{prefix}_new_connection_p99_ms"],
        )
        self.figures["slow_clients_connected_min"] = slow.slow_min

    def closing_figures(self, final: Status | None) -> dict[str, Any]:
        if final is not None and self.live is not None:
            self.figures |= delivery_figures(final, self.live)
        if final is not None and self.args.slow_clients:
            self.figures |= slow_client_figures(final)
        self.figures["failures_whole_run"] = failure_kinds(self.play)
        self.figures["rejected_actions"] = self.play.log.rejected
        self.figures["games_replaced"] = self.play.log.replaced
        if self.managed:
            self.figures["server_processes_restarted"] = server_rss()[1] != self.pids
        self.figures["load_avg_after"] = load_average()
        return self.figures


def load_average() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def slow_client_figures(final: Status) -> dict[str, Any]:
    """How the server treated the slow sockets: how many, how they ended, after how long."""
    return {
        "slow_connections_made": final.slow_connections,
        "slow_connections_ended": dict(final.slow_closed),
        "slow_connection_life_p50_s": round(percentile(final.slow_lifetimes, 50), 2),
        "slow_connection_life_max_s": round(max(final.slow_lifetimes, default=float("nan")), 2),
    }


def streams_summary(requested: int, status: Status, live: Phase) -> dict[str, Any]:
    return {
        "streams_requested": requested,
        "streams_opened": status.opened,
        "streams_open_min_during_phase": live.open_min,
        "streams_open_at_phase_start": live.open_first,
        "streams_open_max_during_phase": live.open_max,
        "refused_streams": sum(status.refusals.values()),
        "refusals_by_status": dict(status.refusals),
        "streams_given_up": dict(status.failed),
        "streams_ended_by_server": status.ended,
        "streams_dropped": status.dropped,  # ended by the server before their game ended
    }


def failure_kinds(play: PacedPlay) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for failure in play.log.failures:
        kind = failure.what.split(":", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def capacity_goals(args: argparse.Namespace, f: dict[str, Any]) -> list[tuple[str, bool]]:
    goals: list[tuple[str, bool]] = []
    if args.streams:
        goals += [
            (f"no stream refused below capacity ({f['refused_streams']})",
             f["refused_streams"] == 0),
            (f"all {args.streams} streams open at once, none lost"
             f" (most sampled {f['streams_open_max_during_phase']}, fewest"
             f" {f['streams_open_min_during_phase']}, at the phase's start"
             f" {f['streams_open_at_phase_start']}; the server ended"
             f" {f['streams_ended_by_server']}, {f['streams_dropped']} of them before their"
             f" game ended; given up {sum(f['streams_given_up'].values())})",
             kept_open(args.streams, f)),
            (f"delivery p95 < {GOAL_CAPACITY_P95_MS:.0f} ms ({f['delivery_p95_ms']} ms)",
             f["delivery_p95_ms"] < GOAL_CAPACITY_P95_MS),
            (f"POST p99 with streams <= {GOAL_POST_P99_RATIO} x without"
             f" ({f['post_p99_ratio_streams']})",
             f["post_p99_ratio_streams"] <= GOAL_POST_P99_RATIO),
        ]  # fmt: skip
        if "server_rss_with_streams_bytes" in f and f["server_rss_with_streams_bytes"]:
            rss = f["server_rss_with_streams_bytes"]
            goals.append((f"server RSS with all open <= 2 GiB ({rss / 2**30:.2f} GiB)",
                          rss <= GOAL_RSS_BYTES))  # fmt: skip
    if args.slow_clients:
        failed = f["slow_failed_requests"]
        goals += [
            (f"POST p99 with slow clients <= {GOAL_POST_P99_RATIO} x without"
             f" ({f['post_p99_ratio_slow']})",
             f["post_p99_ratio_slow"] <= GOAL_POST_P99_RATIO),
            (f"no request failed or timed out with slow clients ({failed})", failed == 0),
        ]  # fmt: skip
    return goals


def print_figures(figures: dict[str, Any]) -> None:
    for name, value in figures.items():
        print(f"{name:34} {value:.1f}" if isinstance(value, float) else f"{name:34} {value}")


PROBLEM_MARKS = (" WARNING ", " ERROR ", " CRITICAL ", "[WARNING]", "[ERROR]", "[CRITICAL]")


def log_findings(log_path: str | None, keep: str | None) -> dict[str, Any]:
    """Warnings, errors and tracebacks in the started service's log (copied to `keep`)."""
    if not log_path or not Path(log_path).exists():
        return {}
    if keep:
        shutil.copyfile(log_path, keep)
    lines = Path(log_path).read_text(errors="replace").splitlines()
    problems = [i for i, line in enumerate(lines) if any(m in line for m in PROBLEM_MARKS)]
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    return {
        "service_log_lines": len(lines),
        "service_log_problems": len(problems),
        "service_log_tracebacks": len(tracebacks),
        "service_log_first_problems": [lines[i] for i in problems[:5]],
        "service_log_first_traceback": traceback_at(lines, tracebacks[0]) if tracebacks else "",
    }


POST_LINE = " cardroom.requests POST /games/<game_id>/actions 201 "
HANDSHAKE_LINE = " cardroom.requests GET /games/<game_id>/events/stream 200 "
HANDSHAKE_NEIGHBOURHOOD_S = 0.2  # a POST served this near a stream's handshake was among them


def server_side_posts(log_path: str | None, figures: dict[str, Any]) -> dict[str, Any]:
    """POST action p99 as the server timed it (its request log), in each phase's window: the
    client's figure also holds the client's own waits for a CPU on this shared machine. In the
    streams phase, also the p99 of the POSTs served among streams' handshakes (a replacement's
    crowd of spectators) and of the rest."""
    if not log_path or not Path(log_path).exists():
        return {}
    lines = Path(log_path).read_text(errors="replace").splitlines()
    posts, handshakes = timed_lines(lines, POST_LINE), timed_lines(lines, HANDSHAKE_LINE)
    start, end = figures.get("quiet_window", (0.0, 0.0))
    phases = {"quiet": [took for when, took in posts if start <= when <= end]}
    start, end = figures.get("streams_window", (0.0, 0.0))
    among_streams = [(when, took) for when, took in posts if start <= when <= end]
    phases["streams"] = [took for _, took in among_streams]
    found: dict[str, Any] = {
        f"{prefix}_server_post_p99_ms": round(ms(percentile(took, 99)), 1)
        for prefix, took in phases.items()
        if took
    }
    if among_streams:
        found.update(posts_by_handshakes(among_streams, [when for when, _ in handshakes]))
    if "quiet_server_post_p99_ms" in found and "streams_server_post_p99_ms" in found:
        found["server_post_p99_ratio_streams"] = ratio(
            found["streams_server_post_p99_ms"], found["quiet_server_post_p99_ms"]
        )
    return found


def timed_lines(lines: list[str], marker: str) -> list[tuple[float, float]]:
    """(when logged, seconds taken) of the request log's lines that hold `marker`."""
    timed: list[tuple[float, float]] = []
    for line in lines:
        if marker not in line:
            continue
        stamp, took = line[:23], line.split(marker, 1)[1].split("ms", 1)[0]
        try:
            when = time.mktime(time.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S"))
            timed.append((when + int(stamp[20:23]) / 1000, float(took) / 1000))
        except ValueError:
            continue
    return timed


def posts_by_handshakes(
    posts: list[tuple[float, float]], handshakes: list[float]
) -> dict[str, Any]:
    """The p99 of the POSTs served within HANDSHAKE_NEIGHBOURHOOD_S of a stream's handshake and
    of the others, and the share of the POSTs that were: what a crowd of handshakes costs the
    actions, told apart from what the open streams cost them."""
    logged = sorted(handshakes)

    def near(when: float, took: float) -> bool:
        around = HANDSHAKE_NEIGHBOURHOOD_S
        return any_within(logged, when - took - around, when + around)

    split: dict[bool, list[float]] = {True: [], False: []}
    for when, took in posts:
        split[near(when, took)].append(took)
    found: dict[str, Any] = {
        "streams_server_posts_near_handshakes_share": round(len(split[True]) / len(posts), 3)
    }
    for is_near, name in ((True, "near_handshakes"), (False, "apart")):
        if split[is_near]:
            p99 = ms(percentile(split[is_near], 99))
            found[f"streams_server_post_p99_{name}_ms"] = round(p99, 1)
    return found


def traceback_at(lines: list[str], first: int) -> str:
    """The traceback starting at line `first`, up to its exception line, with the line
    before it (usually the log message that printed it)."""
    end = first + 1
    while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
        end += 1
    return "\n".join(lines[max(0, first - 1) : end + 1])


def main_capacity(args: argparse.Namespace) -> int:
    if args.start:
        settings = {"MAX_STREAMS": str(args.max_streams), **service_settings(args)}
        with started_service(settings) as service:
            print(f"[bench] service at {service.url}, log {service.log_path}", file=sys.stderr)
            cpu_before = server_procs.cpu_by_kind(service.data_dir, service.pid)
            figures = CapacityRun(args, service.url, managed=True).run()
            cpu_after = server_procs.cpu_by_kind(service.data_dir, service.pid)
            figures["cpu_seconds_by_process"] = server_procs.cpu_between(cpu_before, cpu_after)
            figures |= log_findings(service.log_path, args.keep_log)
            figures |= server_side_posts(service.log_path, figures)
            figures["max_streams_per_process"] = args.max_streams
    else:
        figures = CapacityRun(args, args.url, managed=False).run()
    print_figures(figures)
    goals = capacity_goals(args, figures)
    for text, ok in goals:
        print(f"goal: {text}: {'PASS' if ok else 'FAIL'}")
    write_json(args.json_path, figures | {"goals": [{"goal": t, "pass": ok} for t, ok in goals]})
    return 0 if all(ok for _, ok in goals) else 1


def service_settings(args: argparse.Namespace) -> dict[str, str]:
    """Every stream comes from one address: no per-client cap. NODES=2 holds the streams on
    Pushpin behind its front door, whatever --fanout says."""
    shape = {"NODES": str(args.nodes)} if args.nodes > 1 else {"FANOUT": args.fanout}
    return {"MAX_STREAMS_PER_CLIENT": "0", **shape}


def write_json(path: str | None, figures: dict[str, Any]) -> None:
    if path:
        Path(path).write_text(json.dumps(figures, indent=2, default=str) + "\n")
        print(f"figures written to {path}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.capacity:
        return main_capacity(args)
    args.pace = args.pace or 0.0
    if args.start:  # every stream comes from one address: no per-client cap
        with started_service(service_settings(args)) as service:
            figures = scenario_streams(args, service.url)
    else:
        figures = scenario_streams(args, args.url)
    print_figures(figures)
    ok = figures["delivery_p95_ms"] < GOAL_P95_MS
    print(f"goal: delivery p95 < {GOAL_P95_MS:.0f} ms with {args.streams} streams open:"
          f" {'PASS' if ok else 'FAIL'}")  # fmt: skip
    write_json(args.json_path, figures | {"goal_pass": ok})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
