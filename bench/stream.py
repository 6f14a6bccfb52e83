"""Thousands of event streams while tables play at a human pace.

`games` four-human St Patrick tables are played through the API by `drivers` threads, each
table acting every `pace` s (bench/support/paced_play.py; a game that ends is replaced), after
up to `spread_actions` at once so that their rounds and games end at different times, as at
tables that did not sit down together. After `warmup_seconds`, two phases of `phase_seconds`:
no streams, then `streams` open (per table its 4 seats' and spectators', read by
bench/support/sse_reader.py's process): POST latency, delivery latency (arrival less
`recorded_at`), the server's memory, CPU and log. The service gets MAX_STREAMS=`max_streams`
and MAX_STREAMS_PER_CLIENT=0 (every stream comes from one address); `fanout` and `nodes` choose
who holds the streams."""

from __future__ import annotations

import bisect
import contextlib
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import psutil

from bench.support import server_procs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.paced_play import (
    PacedPlay,
    Table,
    Timed,
    failures_between,
    posts_between,
    probes_between,
)
from bench.support.service import log_findings
from bench.support.sse_reader import ReaderProcess, Status
from bench.support.stats import Progress, load_average, ms, ms_percentiles, percentile

REPLACEMENT_WINDOW_S = 2.0  # after a game's replacement: its end, the new game, its streams
HANDSHAKE_NEIGHBOURHOOD_S = 0.2  # a POST served this near a stream's handshake was among them
POST_LINE = " cardroom.requests POST /games/<game_id>/actions 201 "
HANDSHAKE_LINE = " cardroom.requests GET /games/<game_id>/events/stream 200 "


@dataclass
class Phase:
    name: str
    start: float  # time.time()
    end: float
    open_min: int | None  # streams open, the fewest seen (sampled every second)
    open_first: int | None  # streams open at the first sample
    open_max: int | None  # streams open, the most seen
    busy_pct: float  # the machine's CPU, all processes
    steal_pct: float  # the machine's CPU taken by the hypervisor for others
    server_cpu_pct: float  # the server's processes (gunicorn, RQ workers), % of one CPU
    reader_cpu_pct: float  # the stream reader's process, % of one CPU


def stream_paths(play: PacedPlay, streams: int) -> list[str]:
    """`streams` shared among the tables, shuffled so that seats and spectators open throughout."""
    per_table, extra = divmod(streams, len(play.tables))
    paths: list[str] = []
    for i, table in enumerate(play.tables):
        paths += table_paths(table, per_table + (1 if i < extra else 0))
    random.Random(1).shuffle(paths)
    return paths


def table_paths(table: Table, count: int) -> list[str]:
    """`count` streams of one table from its current version: its seats', then spectators."""
    base = f"/games/{table.id}/events/stream?after={table.state['version']}"
    seats = [f"{base}&access_token={table.tokens[s]}" for s in sorted(table.tokens)]
    return seats[:count] + [base] * max(0, count - len(seats))


def any_within(ordered: list[float], low: float, high: float) -> bool:
    """Whether the sorted `ordered` holds a moment from `low` to `high`."""
    i = bisect.bisect_left(ordered, low)
    return i < len(ordered) and ordered[i] <= high


def slowest_near(
    posts: list[Timed], moments: list[float], window: float = REPLACEMENT_WINDOW_S
) -> dict[str, float]:
    """The share of the slowest POSTs (above the p99) sent within `window` s after one of
    `moments`, and the share of all POSTs that were: equal shares, the moments do not matter."""
    if not posts:
        return {"slowest_share": float("nan"), "all_share": float("nan")}
    starts = sorted(moments)
    p99 = percentile([t.seconds for t in posts], 99)
    near = [any_within(starts, t.at - window, t.at) for t in posts]
    slowest = [is_near for is_near, t in zip(near, posts, strict=True) if t.seconds > p99]
    return {
        "slowest_share": round(sum(slowest) / max(1, len(slowest)), 3),
        "all_share": round(sum(near) / len(posts), 3),
    }


def kept_open(requested: int, f: dict[str, Any]) -> bool:
    """All open at once, none given up, none ended by the server but with their game. The most
    open decides: a sample can fall between a game's end and its replacement's handshakes (a
    game the worker's scoring ends is replaced when its driver next looks, a pace later)."""
    return (
        (f["streams_open_max_during_phase"] or 0) >= requested
        and f["streams_dropped"] == 0
        and not f["streams_given_up"]
    )


def open_streams(reader: ReaderProcess, paths: list[str], concurrency: int) -> float:
    """Opens them all (the reader retries refusals); the seconds it took."""
    started = time.perf_counter()
    reader.open(paths, concurrency)

    def render(elapsed: float) -> str:
        st = reader.last
        rate = st.opened / elapsed if elapsed else 0.0
        return (
            f"[open] {st.opened}/{len(paths)}  open now {st.open_now}"
            f"  refused {sum(st.refusals.values())}  given up {sum(st.failed.values())}"
            f"  {rate:.0f}/s  {elapsed:.0f} s"
        )

    with Progress(render):
        while reader.status().pending:
            time.sleep(0.5)
    return time.perf_counter() - started


def run_phase(name: str, seconds: float, play: PacedPlay, reader: ReaderProcess | None) -> Phase:
    """`seconds` of play, the reader's status sampled once a second, and the CPU taken."""
    start = time.time()
    busy, steal = server_procs.machine_busy_seconds(), server_procs.machine_steal_seconds()
    server = server_procs.app_processes()
    ours = [psutil.Process(reader.process.pid)] if reader else []
    server_cpu, reader_cpu = server_procs.cpu_seconds(server), server_procs.cpu_seconds(ours)
    seen: list[Status] = []

    def render(elapsed: float) -> str:
        posts = posts_between(play.log, start, time.time())
        line = (
            f"[{name}] {elapsed:.0f}/{seconds:.0f} s  actions {len(posts)}"
            f"  POST p50 {ms(percentile(posts, 50)):.0f} ms p99 {ms(percentile(posts, 99)):.0f} ms"
            f"  failures {len(failures_between(play.log, start, time.time()))}"
        )
        if reader is not None:
            st = reader.last
            line += (
                f"  streams open {st.open_now}  events {st.events}  p95 {ms(st.recent_p95):.0f} ms"
            )
        return line

    with Progress(render):
        while time.time() < start + seconds:
            if reader is not None:
                seen.append(reader.status())
            time.sleep(min(1.0, max(0.0, start + seconds - time.time())))
    end = time.time()
    machine = (end - start) * (os.cpu_count() or 1)
    return Phase(
        name,
        start,
        end,
        # Streams being opened count: a replaced game's are, between its old streams' end and
        # its new ones' handshakes.
        open_min=min((st.open_now + st.pending for st in seen), default=None),
        open_first=seen[0].open_now + seen[0].pending if seen else None,
        open_max=max((st.open_now for st in seen), default=None),
        busy_pct=percent(server_procs.machine_busy_seconds() - busy, machine),
        steal_pct=percent(server_procs.machine_steal_seconds() - steal, machine),
        server_cpu_pct=percent(
            server_procs.cpu_used(server_cpu, server_procs.cpu_seconds(server)), end - start
        ),
        reader_cpu_pct=percent(
            server_procs.cpu_used(reader_cpu, server_procs.cpu_seconds(ours)), end - start
        ),
    )


def percent(cpu_seconds: float, seconds: float) -> float:
    return round(100 * cpu_seconds / seconds, 1)


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else float("nan")


def server_rss() -> tuple[int, list[int]]:
    """RSS of the server's processes together, and their pids (a changed set means a worker
    was restarted)."""
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
        **ms_percentiles(f"{prefix}_post", posts, 50, 99),
        f"{prefix}_post_max_ms": round(ms(max(posts, default=float("nan"))), 1),
        **ms_percentiles(f"{prefix}_new_connection", probes, 99),
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


def delivery_figures(final: Status, phase: Phase) -> dict[str, Any]:
    lags = final.lags_between(phase.start, phase.end)
    return {
        "delivered_events": len(lags),
        **ms_percentiles("delivery", lags, 50, 95, 99),
        "delivery_max_ms": round(ms(max(lags, default=float("nan"))), 1),
    }


class CapacityRun:
    """The docstring's phases in one run. `managed`: the bench started the service, so its
    processes are ours to measure."""

    def __init__(self, s: Settings, url: str, managed: bool) -> None:
        self.s = s
        self.managed = managed
        self.play = PacedPlay(url, s["game_type"], s["policy"], s["pace"], s["drivers"], s["seed"])
        self.reader = ReaderProcess(url, s["reader_nice"]) if s["streams"] else None
        self.figures: dict[str, Any] = {
            "game_type": s["game_type"],
            "tables": s["games"],
            "pace_s": s["pace"],
            "drivers": s["drivers"],
            "spread_actions": s["spread_actions"],
            "phase_s": s["phase_seconds"],
            "reader_nice": s["reader_nice"],
            "load_avg_before": load_average(),
        }
        self.pids: list[int] = []
        self.reopened = 0  # streams asked for the games that replaced ended ones

    def run(self) -> dict[str, Any]:
        s, play = self.s, self.play
        print(f"[tables] creating {s['games']} {s['game_type']} games", file=sys.stderr)
        play.create_tables(s["games"])
        play.spread(s["spread_actions"])
        play.start()
        try:
            run_phase("warm-up", s["warmup_seconds"], play, None)
            quiet = run_phase("no streams", s["phase_seconds"], play, self.reader)
            self.figures |= phase_figures("quiet", quiet, play)
            if self.managed:
                self.figures["server_rss_before_bytes"], self.pids = server_rss()
            live = self.streams_phase(self.reader) if self.reader else None
        finally:
            play.stop()
            final = self.reader.stop() if self.reader else None
        if final is not None and live is not None:
            self.figures |= delivery_figures(final, live)
        failures = Counter(failure.what.split(":", 1)[0] for failure in play.log.failures)
        self.figures["failures_whole_run"] = dict(failures)
        self.figures["rejected_actions"] = play.log.rejected
        self.figures["games_replaced"] = play.log.replaced
        if self.managed:
            self.figures["server_processes_restarted"] = server_rss()[1] != self.pids
        self.figures["load_avg_after"] = load_average()
        return self.figures

    def streams_phase(self, reader: ReaderProcess) -> Phase:
        streams, concurrency = self.s["streams"], self.s["open_concurrency"]
        per_table = streams // len(self.play.tables)

        def reopen(table: Table) -> None:
            """A game that ends takes its streams with it; its replacement gets as many."""
            paths = table_paths(table, per_table)
            self.reopened += len(paths)
            reader.open(paths, concurrency, ended=table.replaces)

        paths = stream_paths(self.play, streams)
        self.play.on_replace = reopen  # before the opening: games end during its seconds too
        self.figures["open_seconds"] = round(open_streams(reader, paths, concurrency), 1)
        rss_open = server_rss()[0] if self.managed else 0
        live = run_phase("streams open", self.s["phase_seconds"], self.play, reader)
        self.figures |= streams_summary(streams, reader.last, live)
        self.figures["streams_reopened"] = self.reopened
        self.figures |= phase_figures("streams", live, self.play)
        self.figures["post_p99_ratio_streams"] = ratio(
            self.figures["streams_post_p99_ms"], self.figures["quiet_post_p99_ms"]
        )
        if self.managed:
            rss_with = max(rss_open, server_rss()[0])
            self.figures["server_rss_with_streams_bytes"] = rss_with
            rss_before = self.figures["server_rss_before_bytes"]
            per_stream = (rss_with - rss_before) / max(1, reader.last.open_now)
            self.figures["server_bytes_per_stream"] = round(per_stream)
        return live


def server_side_posts(log_path: str | None, figures: dict[str, Any]) -> dict[str, Any]:
    """POST action p99 as the server timed it, in each phase's window (the client's figure
    also holds its own waits for a CPU on this shared machine); in the streams phase, also
    the p99 of the POSTs served among streams' handshakes and of the rest."""
    if not log_path or not Path(log_path).exists():
        return {}
    lines = Path(log_path).read_text(errors="replace").splitlines()
    posts = timed_lines(lines, POST_LINE)
    in_phase: dict[str, list[tuple[float, float]]] = {}
    for prefix in ("quiet", "streams"):
        start, end = figures.get(f"{prefix}_window", (0.0, 0.0))
        in_phase[prefix] = [(when, took) for when, took in posts if start <= when <= end]
    found: dict[str, Any] = {
        f"{prefix}_server_post_p99_ms": round(ms(percentile([t for _, t in timed], 99)), 1)
        for prefix, timed in in_phase.items()
        if timed
    }
    if in_phase["streams"]:
        handshakes = [when for when, _ in timed_lines(lines, HANDSHAKE_LINE)]
        found |= posts_by_handshakes(in_phase["streams"], handshakes)
    if "quiet_server_post_p99_ms" in found and "streams_server_post_p99_ms" in found:
        found["server_post_p99_ratio_streams"] = ratio(
            found["streams_server_post_p99_ms"], found["quiet_server_post_p99_ms"]
        )
    return found


def timed_lines(lines: list[str], marker: str) -> list[tuple[float, float]]:
    """(when logged, seconds taken) of the request log's lines that hold `marker`."""
    timed: list[tuple[float, float]] = []
    for line in lines:
        if marker in line:
            with contextlib.suppress(ValueError):
                when = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
                timed.append((when, float(line.split(marker, 1)[1].split("ms", 1)[0]) / 1000))
    return timed


def posts_by_handshakes(
    posts: list[tuple[float, float]], handshakes: list[float]
) -> dict[str, Any]:
    """The share of the POSTs served within HANDSHAKE_NEIGHBOURHOOD_S of a stream's handshake,
    and the p99 of those and of the rest: what a crowd of handshakes (a replacement's
    spectators) costs the actions, apart from what the open streams cost them."""
    logged = sorted(handshakes)
    around = HANDSHAKE_NEIGHBOURHOOD_S
    split: dict[str, list[float]] = {"near_handshakes": [], "apart": []}
    for when, took in posts:
        is_near = any_within(logged, when - took - around, when + around)
        split["near_handshakes" if is_near else "apart"].append(took)
    share = round(len(split["near_handshakes"]) / len(posts), 3)
    found: dict[str, Any] = {"streams_server_posts_near_handshakes_share": share}
    for name, served in split.items():
        if served:
            found[f"streams_server_post_p99_{name}_ms"] = round(ms(percentile(served, 99)), 1)
    return found


def run(context: Context, s: Settings) -> Figures:
    service = context.service
    if service is None:
        return CapacityRun(s, context.url, managed=False).run()
    cpu_before = server_procs.cpu_by_kind(service.data_dir, service.pid)
    figures = CapacityRun(s, service.url, managed=True).run()
    cpu_after = server_procs.cpu_by_kind(service.data_dir, service.pid)
    figures["cpu_seconds_by_process"] = server_procs.cpu_between(cpu_before, cpu_after)
    figures |= log_findings(service.log_path, s["keep_log"])
    figures |= server_side_posts(service.log_path, figures)
    if figures.get("server_rss_with_streams_bytes"):
        figures["server_rss_with_streams_gib"] = figures["server_rss_with_streams_bytes"] / 2**30
    if s["streams"]:
        figures["all_streams_kept_open"] = kept_open(s["streams"], figures)
    return figures


def service_env(s: Settings) -> dict[str, str]:
    """NODES=2 holds the streams on Pushpin behind its front door, whatever `fanout` says."""
    shape = {"NODES": str(s["nodes"])} if s["nodes"] > 1 else {"FANOUT": s["fanout"]}
    return {"MAX_STREAMS": str(s["max_streams"]), "MAX_STREAMS_PER_CLIENT": "0", **shape}


BENCHMARK = Benchmark(
    name="stream",
    about="thousands of event streams on tables played at a human pace: delivery, POSTs, memory",
    run=run,
    needs_service=True,
    service_env=service_env,
    settings={"streams": (10_000, 200), "games": (100, 10), "pace": (3.0, 1.0), "drivers": 4,
        "game_type": "st_patrick", "policy": "basic", "spread_actions": (300, 40),
        "phase_seconds": (60.0, 8.0), "warmup_seconds": (10.0, 2.0),
        "open_concurrency": (200, 50), "max_streams": 11_000, "reader_nice": 0,
        "fanout": "embedded", "nodes": 1, "keep_log": "", "seed": 1},
    goals=[
        Goal("refused_streams", "==", 0, about="10,000 streams on 100 St Patrick tables at a "
            "human pace: none refused"),
        Goal("all_streams_kept_open", "==", True, about="all open at once, none lost"),
        Goal("delivery_p95_ms", "<", 250, "ms", "delivery p95 < 250 ms"),
        Goal("post_p99_ratio_streams", "<=", 2, "x", "POST p99 in the streams phase <= 2 x the "
            "quiet phase's"),
        Goal("server_rss_with_streams_gib", "<=", 2, "GiB", "memory of every server process <= 2 "
            "GiB"),
    ],
)  # fmt: skip
