"""Cardroom soak: about 200 games kept in play for --minutes, then whether the service held up.

    .venv/bin/python -m bench.soak --start                 # 10 minutes, its own server
    .venv/bin/python -m bench.soak --start --minutes 3 --json /tmp/soak.json
    RATE_LIMITS=off make run  # then: .venv/bin/python -m bench.soak --url http://127.0.0.1:8000

The load (bench/soak_play.py): --games tables of the four game types, played through the API by
--drivers keep-alive client threads at a human pace (each table acts every --pace s, give or
take half), the way README.md's walkthrough does (view, template, expected_version,
Idempotency-Key). A share of them (--bot-share) seat one human and three bots, whose moves are
jobs on the RQ workers. Every table has its seats' event streams open, and --spectators more,
read by an asyncio reader in a process of its own (bench/sse_reader.py). A game that ends is
replaced by a new one (with its streams), so about --games stay in play.

Watched meanwhile (bench/soak_watch.py, every --sample-every s): the outbox (rows not done, age
of the oldest, from /readyz), the RQ queue's depth, and with --start the RSS of each server
process (gunicorn master and workers, RQ workers). A progress line every 10 s.

At the end: errors by status, actions/s per minute, POST p50/p99 of the first and the last
minute, RSS per process (at the start, after the first minute, at the end), the outbox and
queue per minute, and a PASS/FAIL line per goal:
  - no response >= 500 (API answers, stream handshakes, the new-connection probe);
  - POST p99 of the last minute <= 1.25 x that of the first;
  - RSS of each API and RQ worker process grows <= 10 % after the first minute;
  - the outbox never more than 5 s behind (the oldest unfinished row, as sampled).
Rate limits must be off: --start turns them off; a server of yours needs RATE_LIMITS=off.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.paced_play import posts_between
from bench.service import embedded_redis_url, started_service
from bench.soak_play import SoakPlay
from bench.soak_watch import Watcher, per_minute, rss_by_role
from bench.sse_reader import ReaderProcess, Status
from bench.stats import ms, percentile
from bench.stream import load_average, log_findings

MAX_MINUTES = 240.0
PROGRESS_EVERY = 10.0
GOAL_P99_RATIO = 1.25
GOAL_RSS_GROWTH = 0.10
GOAL_OUTBOX_LAG_S = 5.0
OPEN_CONCURRENCY = 50


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--minutes", type=float, default=10.0, help=f"length (at most {MAX_MINUTES:g})")
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the running service")
    p.add_argument("--start", action="store_true", help="start the service (embedded.run)")
    p.add_argument("--games", type=int, default=200, help="games kept in play")
    p.add_argument("--pace", type=float, default=4.0, help="s between a table's actions")
    p.add_argument("--poll", type=float, default=1.0, help="s between looks while bots play")
    p.add_argument("--drivers", type=int, default=8, help="client threads (one session each)")
    p.add_argument("--bot-share", type=float, default=0.5, help="tables of 1 human + 3 bots")
    p.add_argument("--bot-levels", default="basic,random", help="levels the bots are drawn from")
    p.add_argument("--spectators", type=int, default=1, help="spectator streams per table")
    p.add_argument("--rq-workers", type=int, default=1, help="RQ_WORKERS (with --start)")
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL"), help="without --start")
    p.add_argument("--queue", default=os.environ.get("RQ_QUEUE", "cardroom"), help="ditto")
    p.add_argument("--sample-every", type=float, default=2.0, help="s between outbox samples")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", dest="json_path", help="also write the figures to this file")
    p.add_argument("--keep-log", help="copy the started service's log here at the end")
    args = p.parse_args(argv)
    if not 0 < args.minutes <= MAX_MINUTES:
        p.error(f"--minutes must be above 0 and at most {MAX_MINUTES:g}")
    if args.games < 1 or args.drivers < 1:
        p.error("--games and --drivers must be at least 1")
    return args


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Soak:
    def __init__(self, args: argparse.Namespace, url: str, redis_url: str | None,
                 queue: str, managed: bool) -> None:  # fmt: skip
        self.args = args
        self.managed = managed  # its processes are ours to measure
        self.play = SoakPlay(url, args.pace, args.drivers, args.seed, args.bot_share,
                             args.bot_levels.split(","), args.spectators, args.poll)  # fmt: skip
        self.watcher = Watcher(url, redis_url, queue)
        self.reader: ReaderProcess | None = None
        self.rss: dict[str, dict[str, int]] = {}  # "start", "after 1 min", "end"
        self.rss_by_minute: list[dict[str, int]] = []  # at the end of each whole minute
        self.start = self.end = 0.0

    def run(self) -> dict[str, Any]:
        say(f"[soak] creating {self.args.games} games")
        self.play.create_tables(self.args.games)
        self.reader = ReaderProcess(self.play.url)
        final: Status | None = None
        try:
            self.reader.open(self.play.take_streams(), OPEN_CONCURRENCY)
            self.play.start()
            self.start = time.time()
            self.rss["start"] = rss_by_role() if self.managed else {}
            self.loop()
            self.rss["end"] = rss_by_role() if self.managed else {}
            self.rss.setdefault("after 1 min", self.rss["end"])
        finally:
            self.end = time.time()
            self.play.stop()
            final = self.reader.stop()
            self.watcher.close()
        return self.figures(final)

    def loop(self) -> None:
        deadline = self.start + 60 * self.args.minutes
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
                self.rss_by_minute.append(rss_by_role())
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
            time.sleep(max(0.0, min(self.args.sample_every, deadline - time.time())))

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
            "games_in_play": self.args.games,
            "games_created": dict(self.play.created),
            "games_replaced": self.play.log.replaced,
            "actions": len(self.play.log.posts),
            "rejected_stale_view": self.play.log.rejected,
            "answers_by_status": {str(k): v for k, v in sorted(tally.statuses.items())},
            "errors_by_status": errors_by_status(self.play, final),
            "server_errors": server_errors(self.play, final),
            "actions_per_s_by_minute": actions_per_minute(self.play, start, end),
            "first_minute_post_p50_ms": round(ms(percentile(first, 50)), 1),
            "first_minute_post_p99_ms": round(ms(percentile(first, 99)), 1),
            "last_minute_post_p50_ms": round(ms(percentile(last, 50)), 1),
            "last_minute_post_p99_ms": round(ms(percentile(last, 99)), 1),
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
        for code, n in final.refusals.items():
            errors[f"stream {code}"] += n
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
        "first_minute_delivery_p99_ms": round(ms(percentile(first, 99)), 1),
        "last_minute_delivery_p99_ms": round(ms(percentile(last, 99)), 1),
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


def goals(f: dict[str, Any]) -> list[tuple[str, bool | None]]:
    """(goal, True/False, or None when it could not be measured)."""
    first = f["first_minute_post_p99_ms"]
    ratio = f["last_minute_post_p99_ms"] / first if first else math.nan
    growth = rss_growth(f["rss_bytes"])
    worst = max(growth.values(), default=math.nan)
    lag = f["outbox_lag_max_s"]
    return [
        (f"no response >= 500 ({f['server_errors']})", f["server_errors"] == 0),
        (f"POST p99 last minute <= {GOAL_P99_RATIO} x first ({f['last_minute_post_p99_ms']} ms"
         f" / {f['first_minute_post_p99_ms']} ms = {ratio:.2f})",
         ratio <= GOAL_P99_RATIO if not math.isnan(ratio) else None),
        (f"RSS of each API and RQ worker grows <= {GOAL_RSS_GROWTH:.0%} after the first minute"
         f" (worst {worst:+.1%})",
         worst <= GOAL_RSS_GROWTH if growth else None),
        (f"outbox never more than {GOAL_OUTBOX_LAG_S:g} s behind (max {lag:g} s sampled)",
         lag <= GOAL_OUTBOX_LAG_S if not math.isnan(lag) else None),
    ]  # fmt: skip


def print_report(f: dict[str, Any], results: list[tuple[str, bool | None]]) -> None:
    print(f"soak: {f['minutes']} min, {f['games_in_play']} games in play,"
          f" {f['games_replaced']} replaced, {f['actions']} actions"
          f" ({f['rejected_stale_view']} stale views re-read),"
          f" load {f['load_avg_end']}")  # fmt: skip
    print(f"games created: {f['games_created']}")
    print(f"answers by status: {f['answers_by_status']}")
    print(f"errors by status: {f['errors_by_status'] or 'none'}")
    print(f"actions/s by minute: {f['actions_per_s_by_minute']}")
    print(f"POST first minute: p50 {f['first_minute_post_p50_ms']} ms,"
          f" p99 {f['first_minute_post_p99_ms']} ms;"
          f" last minute: p50 {f['last_minute_post_p50_ms']} ms,"
          f" p99 {f['last_minute_post_p99_ms']} ms")  # fmt: skip
    if "streams_opened" in f:
        print(f"streams: {f['streams_opened']} opened, {f['streams_ended_by_server']} ended with"
              f" their game, {f['events_delivered']} events delivered; delivery p99 first"
              f" minute {f['first_minute_delivery_p99_ms']} ms,"
              f" last {f['last_minute_delivery_p99_ms']} ms")  # fmt: skip
    rss = f["rss_bytes"]
    if any(rss.values()):
        print("RSS MiB            start  after 1 min    end")
        for name in sorted(set().union(*rss.values())):
            row = [rss.get(when, {}).get(name) for when in ("start", "after 1 min", "end")]
            print(f"  {name:16}" + "".join(f"{v / 2**20:>9.1f}" if v else f"{'-':>9}"
                                           for v in row))  # fmt: skip
        print("RSS MiB at the end of each minute:")
        for name in sorted(set().union(*rss.values())):
            series = [m.get(name) for m in f["rss_bytes_by_minute"]]
            print(f"  {name:16} " + " ".join(f"{v / 2**20:.0f}" if v else "-" for v in series))
    print("outbox and queue per minute (min/median/max):")
    for row in f["outbox_per_minute"]:
        print(f"  minute {row['minute']}: outbox rows {row['outbox_rows']},"
              f" lag {row['outbox_lag_s']} s, rq depth {row['rq_depth']}")  # fmt: skip
    print(f"outbox lag max {f['outbox_lag_max_s']} s over {f['outbox_samples']} samples"
          f" ({f['outbox_unread_samples']} unread)")  # fmt: skip
    for text, ok in results:
        verdict = "n/a (not measured)" if ok is None else ("PASS" if ok else "FAIL")
        print(f"goal: {text}: {verdict}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.start:
        queue = f"soak-{os.getpid()}"
        settings = {"RATE_LIMITS": "off", "MAX_STREAMS_PER_CLIENT": "0", "RQ_QUEUE": queue,
                    "RQ_WORKERS": str(args.rq_workers)}  # fmt: skip
        with started_service(settings) as service:
            say(f"[soak] service at {service.url}, log {service.log_path}")
            redis_url = os.environ.get("REDIS_URL") or embedded_redis_url(service.data_dir or "")
            figures = Soak(args, service.url, redis_url, queue, managed=True).run()
            figures |= log_findings(service.log_path, args.keep_log)
    else:
        figures = Soak(args, args.url, args.redis_url, args.queue, managed=False).run()
    results = goals(figures)
    print_report(figures, results)
    if figures.get("service_log_tracebacks"):
        print(f"service log: {figures['service_log_tracebacks']} tracebacks, first:\n"
              f"{figures['service_log_first_traceback']}")  # fmt: skip
    if args.json_path:
        goals_json = [{"goal": text, "pass": ok} for text, ok in results]
        Path(args.json_path).write_text(
            json.dumps(figures | {"goals": goals_json}, indent=2, default=str) + "\n"
        )
        print(f"figures written to {args.json_path}")
    return 0 if all(ok is not False for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
