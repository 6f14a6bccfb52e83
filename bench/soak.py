"""About 200 games kept in play for `minutes`, then whether the service held up.

The load (bench/soak_play.py): `games` tables of the four game types, played through the API
by `drivers` keep-alive client threads at a human pace (each table acts every `pace` s, give or
take half), the way README.md's walkthrough does (view, template, expected_version,
Idempotency-Key). A share of them (`bot_share`) seat one human and three bots, whose moves are
jobs on the RQ workers. Every table has its seats' event streams open, and `spectators` more,
read by bench/support/sse_reader.py's process. A game that ends is replaced by a new one (with
its streams). Watched meanwhile (bench/soak_watch.py, every `sample_every` s): the outbox (from
/readyz), the RQ queue's depth, and the RSS of each server process. Figures: errors by status,
actions/s per minute, POST p50/p99 of the first and the last minute, RSS per process (at the
start, after the first minute, at the end), the outbox and queue per minute."""

from __future__ import annotations

import math
import os
import sys
import time
from collections import Counter
from typing import Any

from bench.soak_play import SoakPlay
from bench.soak_watch import Watcher, per_minute
from bench.stream import load_average, log_findings
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.paced_play import posts_between
from bench.support.server_procs import rss_by_process
from bench.support.service import embedded_redis_url
from bench.support.sse_reader import ReaderProcess, Status
from bench.support.stats import ms_percentiles

PROGRESS_EVERY = 10.0
OPEN_CONCURRENCY = 50


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Soak:
    def __init__(self, s: Settings, url: str, redis_url: str | None, queue: str,
                 managed: bool) -> None:  # fmt: skip
        self.s = s
        self.managed = managed  # its processes are ours to measure
        self.play = SoakPlay(url, s["pace"], s["drivers"], s["seed"], s["bot_share"],
                             s["bot_levels"].split(","), s["spectators"], s["poll"])  # fmt: skip
        self.watcher = Watcher(url, redis_url, queue)
        self.reader: ReaderProcess | None = None
        self.rss: dict[str, dict[str, int]] = {}  # "start", "after 1 min", "end"
        self.rss_by_minute: list[dict[str, int]] = []  # at the end of each whole minute
        self.start = self.end = 0.0

    def run(self) -> dict[str, Any]:
        say(f"[soak] creating {self.s['games']} games")
        self.play.create_tables(self.s["games"])
        self.reader = ReaderProcess(self.play.url)
        final: Status | None = None
        try:
            self.reader.open(self.play.take_streams(), OPEN_CONCURRENCY)
            self.play.start()
            self.start = time.time()
            self.rss["start"] = rss_by_process() if self.managed else {}
            self.loop()
            self.rss["end"] = rss_by_process() if self.managed else {}
            self.rss.setdefault("after 1 min", self.rss["end"])
        finally:
            self.end = time.time()
            self.play.stop()
            final = self.reader.stop()
            self.watcher.close()
        return self.figures(final)

    def loop(self) -> None:
        deadline = self.start + 60 * self.s["minutes"]
        next_line = self.start + PROGRESS_EVERY
        posts_then = 0
        assert self.reader is not None
        while (now := time.time()) < deadline:
            new = self.play.take_streams()
            if new:
                self.reader.open(new, OPEN_CONCURRENCY)
            status = self.reader.status()
            sample = self.watcher.sample(status.open_now)
            if self.managed and now >= self.start + 60 * (len(self.rss_by_minute) + 1):
                self.rss_by_minute.append(rss_by_process())
                self.rss.setdefault("after 1 min", self.rss_by_minute[0])
            if now >= next_line:
                posts = len(self.play.log.posts)
                say(
                    f"[soak] {now - self.start:4.0f}/{deadline - self.start:.0f} s"
                    f"  actions/s {(posts - posts_then) / PROGRESS_EVERY:5.1f}"
                    f"  errors {self.play.tally.errors() + sum(status.failed.values())}"
                    f"  outbox {sample.outbox_rows} rows, lag {sample.outbox_lag} s"
                    f"  rq {sample.rq_depth}  streams {status.open_now}"
                    f"  games replaced {self.play.log.replaced}"
                )
                posts_then, next_line = posts, next_line + PROGRESS_EVERY
            time.sleep(max(0.0, min(self.s["sample_every"], deadline - time.time())))

    # --- figures ---------------------------------------------------------------------------

    def figures(self, final: Status | None) -> dict[str, Any]:
        start, end = self.start, self.end
        first = posts_between(self.play.log, start, start + 60)
        last = posts_between(self.play.log, max(start, end - 60), end)
        tally = self.play.tally
        samples = self.watcher.samples
        lags = [s.outbox_lag for s in samples if s.outbox_lag is not None]
        figures: dict[str, Any] = {
            "minutes": round((end - start) / 60, 2),
            "games_in_play": self.s["games"],
            "games_created": dict(self.play.created),
            "games_replaced": self.play.log.replaced,
            "actions": len(self.play.log.posts),
            "rejected_stale_view": self.play.log.rejected,
            "answers_by_status": {str(k): v for k, v in sorted(tally.statuses.items())},
            "errors_by_status": errors_by_status(self.play, final),
            "server_errors": server_errors(self.play, final),
            "actions_per_s_by_minute": actions_per_minute(self.play, start, end),
            **ms_percentiles("first_minute_post", first, 50, 99),
            **ms_percentiles("last_minute_post", last, 50, 99),
            "rss_bytes": self.rss,
            "rss_bytes_by_minute": self.rss_by_minute,
            "outbox_per_minute": per_minute(samples, start, end),
            "outbox_lag_max_s": max(lags, default=math.nan),
            "outbox_samples": len(samples),
            "outbox_unread_samples": sum(1 for s in samples if s.outbox_lag is None),
            "load_avg_end": load_average(),
        }
        if final is not None:
            figures |= streams_figures(final, start, end)
        return figures


def errors_by_status(play: SoakPlay, final: Status | None) -> dict[str, int]:
    """API answers >= 400 (stale views apart), requests with no answer, refused streams."""
    errors: Counter[str] = Counter()
    for code, n in play.tally.statuses.items():
        if code >= 400:
            errors[f"{code}{' (stale view)' if code in (409, 422) else ''}"] += n
    for name, n in play.tally.exceptions.items():
        errors[name] += n
    for failure in play.log.failures:
        if failure.what.startswith("probe"):
            errors[failure.what] += 1
    if final is not None:
        for refused, n in final.refusals.items():
            errors[f"stream {refused}"] += n
        for reason, n in final.failed.items():
            errors[f"stream {reason}"] += n
    return dict(sorted(errors.items()))


def server_errors(play: SoakPlay, final: Status | None) -> int:
    answers = sum(n for code, n in play.tally.statuses.items() if code >= 500)
    probes = sum(1 for f in play.log.failures if f.what.startswith("probe 5"))
    refused = final.refusals.items() if final else ()
    streams = sum(n for code, n in refused if code.isdigit() and int(code) >= 500)
    return answers + probes + streams


def actions_per_minute(play: SoakPlay, start: float, end: float) -> list[float]:
    rates = []
    minute = start
    while minute < end - 1:  # not the instant after the deadline
        upto = min(end, minute + 60)
        rates.append(round(len(posts_between(play.log, minute, upto)) / (upto - minute), 1))
        minute = upto
    return rates


def streams_figures(final: Status, start: float, end: float) -> dict[str, Any]:
    def delivery(low: float, high: float) -> list[float]:
        return [lag for at, lag in zip(final.arrivals, final.lags, strict=True) if low <= at < high]

    first, last = delivery(start, start + 60), delivery(max(start, end - 60), end)
    return {
        "streams_opened": final.opened,
        "streams_ended_by_server": final.ended,  # their game ended
        "events_delivered": final.events,
        **ms_percentiles("first_minute_delivery", first, 99),
        **ms_percentiles("last_minute_delivery", last, 99),
    }


# --- goals and printing --------------------------------------------------------------------


def rss_growth(rss: dict[str, dict[str, int]]) -> dict[str, float]:
    """Growth of each process from the first minute to the end (a process missing at either
    end, restarted, counts as infinite)."""
    before, after = rss.get("after 1 min", {}), rss.get("end", {})
    growth = {}
    for name in sorted(set(before) | set(after)):
        if "master" in name:
            continue  # the goal is about the processes that serve
        if name in before and name in after:
            growth[name] = round(after[name] / before[name] - 1, 4)
        else:
            growth[name] = math.inf
    return growth


def run(context: Context, s: Settings) -> Figures:
    service = context.service
    if service is None:  # a server of yours needs RATE_LIMITS=off
        redis_url, queue = os.environ.get("REDIS_URL"), os.environ.get("RQ_QUEUE", "cardroom")
        figures = Soak(s, context.url, redis_url, queue, managed=False).run()
    else:
        redis_url = os.environ.get("REDIS_URL") or embedded_redis_url(service.data_dir or "")
        figures = Soak(s, service.url, redis_url, service_env(s)["RQ_QUEUE"], managed=True).run()
        figures |= log_findings(service.log_path, s["keep_log"])
    first = figures["first_minute_post_p99_ms"]
    growth = rss_growth(figures["rss_bytes"])
    figures["post_p99_last_to_first"] = (
        figures["last_minute_post_p99_ms"] / first if first else None
    )
    figures["rss_growth_worst"] = max(growth.values(), default=None)
    return figures


def service_env(s: Settings) -> dict[str, str]:
    return {"RATE_LIMITS": "off", "MAX_STREAMS_PER_CLIENT": "0", "RQ_QUEUE": f"soak-{os.getpid()}",
            "RQ_WORKERS": str(s["rq_workers"])}  # fmt: skip


BENCHMARK = Benchmark(
    name="soak",
    about="about 200 games in play for 10 minutes, streams open: does the service hold up?",
    run=run,
    needs_service=True,
    service_env=service_env,
    settings={"minutes": (10.0, 0.1), "games": (200, 8), "pace": (4.0, 1.0), "poll": 1.0,
        "drivers": (8, 2), "bot_share": 0.5, "bot_levels": "basic,random", "spectators": 1,
        "rq_workers": 1, "sample_every": 2.0, "keep_log": "", "seed": 1},
    goals=[
        Goal("server_errors", "==", 0, about="the soak, 200 games for 10 min: no answer >= 500"),
        Goal("post_p99_last_to_first", "<=", 1.25, "x", "POST p99 last minute <= 1.25 x first"),
        Goal("rss_growth_worst", "<=", 0.10, about="each process grows <= 10 % after the first "
            "minute"),
        Goal("outbox_lag_max_s", "<=", 5, "s", "outbox never 5 s behind"),
    ],
)  # fmt: skip
