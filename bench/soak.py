"""About 200 games kept in play for `minutes`, then whether the service held up.

`games` tables of all four game types, a share (`bot_share`) of them one human and three bots,
played at a human pace as README.md's walkthrough plays, their seats' streams and `spectators`
more open. Watched every `sample_every` s: the outbox (/readyz), the RQ queue's depth, each
server process's RSS; the figures say whether errors, latency or memory drift over the run."""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import redis
import requests
from rq import Queue

from bench.stream import table_paths
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.paced_play import BadAnswer, Failure, PacedPlay, Table, Timed, posts_between
from bench.support.players import Api
from bench.support.server_procs import rss_by_process
from bench.support.service import log_findings
from bench.support.sse_reader import ReaderProcess, Status
from bench.support.stats import load_average, ms_percentiles
from domain.kit.templates import action_from_template

GAME_TYPES = ("trick_and_snipers", "st_patrick", "ouroboros_trick", "saint_poker")
SEATS = 4
STALE = (409, 422)  # the game moved between the view and the POST: expected, not an error
PROGRESS_EVERY = 10.0
OPEN_CONCURRENCY = 50


class SoakPlay(PacedPlay):
    """PacedPlay's drivers; a table acts for its human seats only, a random legal move sent with
    the version it saw, and every answer is tallied by status."""

    def __init__(self, url: str, s: Settings) -> None:
        super().__init__(url, "mixed", "first", s["pace"], s["drivers"], s["seed"])
        self.s = s
        self.statuses: Counter[int] = Counter()
        self.exceptions: Counter[str] = Counter()  # requests that got no answer
        self.created: Counter[str] = Counter()  # games created, by "type/humans|bots"
        self._lock = threading.Lock()
        self._serial = 0

    def _new_table(self, api: Api, index: int) -> Table:
        with self._lock:
            self._serial += 1
            serial = self._serial
        rng = random.Random(f"{self.seed}:{index}:{serial}")
        game_type = GAME_TYPES[serial % len(GAME_TYPES)]
        with_bots = rng.random() < self.s["bot_share"]
        levels = self.s["bot_levels"].split(",")
        seats = [
            {"kind": "bot", "level": rng.choice(levels)}
            if with_bots and i
            else {"kind": "human", "name": f"p{i}"}
            for i in range(SEATS)
        ]
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        body = {"type": game_type, "seats": seats}
        response, _ = self._call(api, "POST", "/games", None, json=body, headers=headers)
        if response.status_code != 201:
            raise BadAnswer(f"POST /games: {response.status_code}")
        game = response.json()
        self.created[f"{game_type}/{'bots' if with_bots else 'humans'}"] += 1
        return Table(game["id"], {t["seat"]: t["token"] for t in game["tokens"]}, game, rng)

    def _step(self, api: Api, index: int) -> None:
        """One action (or look); the table's next is a human-ish pause later (half to one and a
        half paces), or `poll` s when it could not act."""
        now = time.monotonic()
        try:
            acted = self._act(api, index, self.tables[index])
        except requests.RequestException as error:
            if not isinstance(error, BadAnswer):  # a bad answer's status is tallied already
                with self._lock:
                    self.exceptions[type(error).__name__] += 1
            self.log.failures.append(Failure(time.time(), f"{type(error).__name__}: {error}"))
            acted = True
        table = self.tables[index]  # a new one if the game ended
        if acted:
            table.due = max(table.due + self.pace * table.rng.uniform(0.5, 1.5), now)
        else:
            table.due = now + self.s["poll"]

    def _act(self, api: Api, index: int, table: Table) -> bool:
        """False when the table could not act yet (only bots due, or a stale view)."""
        path = f"/games/{table.id}"
        if table.finished:
            self._replace(api, index)
            return False
        mine = [seat for seat in table.state["to_act"] if seat in table.tokens]
        if not mine:  # bots or the worker are due: look again, cheaply while nothing moved
            table.state = self._get(api, path, None, known=table.state)
            return False
        seat = table.rng.choice(mine)
        view = self._get(api, path, table.tokens[seat])
        templates = view["you"]["legal_actions"]
        if not templates:
            table.state = view
            return False
        body = action_from_template(table.rng.choice(templates), table.rng)
        body["expected_version"] = view["version"]
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        sent = time.time()
        response, seconds = self._call(
            api, "POST", f"{path}/actions", table.tokens[seat], json=body, headers=headers
        )
        if response.status_code == 201:
            self.log.posts.append(Timed(sent, seconds))
            table.state = response.json()["game"]
            return True
        if response.status_code in STALE:
            self.log.rejected += 1
            table.state = self._get(api, path, None)
            return False
        self.log.failures.append(Failure(sent, f"POST {response.status_code}"))
        return True

    def _get(
        self, api: Api, path: str, token: str | None, known: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The game at `path`; `known` itself while its version has not moved (a 304)."""
        headers = {"If-None-Match": f'"{known["version"]}"'} if known else {}
        response, _ = self._call(api, "GET", path, token, headers=headers)
        if known is not None and response.status_code == 304:
            return known
        if response.status_code != 200:
            raise BadAnswer(f"GET {path}: {response.status_code}")
        body: dict[str, Any] = response.json()
        return body

    def _call(
        self, api: Api, method: str, path: str, token: str | None, **kwargs: Any
    ) -> tuple[requests.Response, float]:
        response, seconds = api.call(method, path, token, **kwargs)
        with self._lock:
            self.statuses[response.status_code] += 1
        return response, seconds


@dataclass
class Sample:
    at: float  # time.time()
    outbox_lag: float | None  # s since the oldest unfinished outbox row was written
    outbox_rows: int | None  # unfinished outbox rows
    rq_depth: int | None  # jobs waiting on the RQ queue


class Soak:
    def __init__(self, s: Settings, context: Context) -> None:
        self.s = s
        self.service = context.service  # when the bench started it, its processes are measured
        redis_url = os.environ.get("REDIS_URL")
        queue = os.environ.get("RQ_QUEUE", "cardroom")  # a server of yours needs RATE_LIMITS=off
        if self.service is not None:
            redis_url = self.service.redis_url
            queue = service_env(s)["RQ_QUEUE"]
        self.queue = Queue(queue, connection=redis.Redis.from_url(redis_url)) if redis_url else None
        self.play = SoakPlay(context.url, s)
        self.session = requests.Session()
        self.samples: list[Sample] = []
        self.rss: dict[str, dict[str, int]] = {}  # "start", "after 1 min", "end"
        self.rss_by_minute: list[dict[str, int]] = []  # at the end of each whole minute
        self.start = self.end = 0.0

    def run(self) -> dict[str, Any]:
        say(f"[soak] creating {self.s['games']} games")
        self.play.create_tables(self.s["games"])
        reader = ReaderProcess(self.play.url)

        def streams(table: Table) -> list[str]:  # its human seats' and `spectators` more
            return table_paths(table, len(table.tokens) + self.s["spectators"])

        def reopen(table: Table) -> None:  # a game that ends takes its streams with it
            reader.open(streams(table), OPEN_CONCURRENCY, ended=table.replaces)

        self.play.on_replace = reopen
        try:
            reader.open([p for table in self.play.tables for p in streams(table)], OPEN_CONCURRENCY)
            self.play.start()
            self.start = time.time()
            self.rss["start"] = self.rss_now()
            self.loop(reader)
            self.rss["end"] = self.rss_now()
            self.rss["after 1 min"] = (self.rss_by_minute or [self.rss["end"]])[0]
        finally:
            self.end = time.time()
            self.play.stop()
            final = reader.stop()
            self.session.close()
        return self.figures(final)

    def loop(self, reader: ReaderProcess) -> None:
        deadline = self.start + 60 * self.s["minutes"]
        next_line = self.start + PROGRESS_EVERY
        posts_then = 0
        while (now := time.time()) < deadline:
            status = reader.status()
            sample = self.sample()
            if self.service and now >= self.start + 60 * (len(self.rss_by_minute) + 1):
                self.rss_by_minute.append(self.rss_now())
            if now >= next_line:
                posts = len(self.play.log.posts)
                say(
                    f"[soak] {now - self.start:4.0f}/{deadline - self.start:.0f} s"
                    f"  actions/s {(posts - posts_then) / PROGRESS_EVERY:5.1f}"
                    f"  errors {len(self.play.log.failures) + sum(status.failed.values())}"
                    f"  outbox {sample.outbox_rows} rows, lag {sample.outbox_lag} s"
                    f"  rq {sample.rq_depth}  streams {status.open_now}"
                    f"  games replaced {self.play.log.replaced}"
                )
                posts_then, next_line = posts, next_line + PROGRESS_EVERY
            time.sleep(max(0.0, min(self.s["sample_every"], deadline - time.time())))

    def rss_now(self) -> dict[str, int]:
        return rss_by_process() if self.service else {}

    def sample(self) -> Sample:
        """The outbox as /readyz tells it and the RQ queue's depth (None where unread)."""
        lag = rows = depth = None
        with suppress(requests.RequestException, ValueError, KeyError):
            ready = self.session.get(f"{self.play.url.rstrip('/')}/readyz", timeout=5).json()
            lag, rows = ready["outbox"]["lag_seconds"], ready["outbox"]["unfinished"]
        if self.queue is not None:
            with suppress(redis.RedisError):
                depth = self.queue.count
        self.samples.append(Sample(time.time(), lag, rows, depth))
        return self.samples[-1]

    def figures(self, final: Status) -> dict[str, Any]:
        start, end, log = self.start, self.end, self.play.log
        first, last = (start, start + 60), (max(start, end - 60), end)
        minutes = minutes_of(start, end)
        lags = [s.outbox_lag for s in self.samples if s.outbox_lag is not None]
        errors = errors_by_status(self.play, final)
        figures: dict[str, Any] = {
            "minutes": round((end - start) / 60, 2),
            "games_in_play": self.s["games"],
            "games_created": dict(self.play.created),
            "games_replaced": log.replaced,
            "actions": len(log.posts),
            "rejected_stale_view": log.rejected,
            "answers_by_status": {str(k): v for k, v in sorted(self.play.statuses.items())},
            "errors_by_status": errors,
            "server_errors": sum(n for what, n in errors.items() if server_error(what)),
            "actions_per_s_by_minute": [
                round(len(posts_between(log, low, high)) / (high - low), 1) for low, high in minutes
            ],
            **ms_percentiles("first_minute_post", posts_between(log, *first), 50, 99),
            **ms_percentiles("last_minute_post", posts_between(log, *last), 50, 99),
            "rss_bytes": self.rss,
            "rss_bytes_by_minute": self.rss_by_minute,
            "outbox_per_minute": [
                outbox_minute(n, [s for s in self.samples if low <= s.at < high])
                for n, (low, high) in enumerate(minutes, 1)
            ],
            "outbox_lag_max_s": max(lags, default=math.nan),
            "outbox_samples": len(self.samples),
            "outbox_unread_samples": sum(1 for s in self.samples if s.outbox_lag is None),
            "load_avg_end": load_average(),
            "streams_opened": final.opened,
            "streams_ended_by_server": final.ended,  # their game ended
            "events_delivered": final.events,
        }
        for name, (low, high) in (("first", first), ("last", last)):
            delivery = final.lags_between(low, high)
            figures |= ms_percentiles(f"{name}_minute_delivery", delivery, 99)
        if self.service is not None:
            figures |= log_findings(self.service.log_path, self.s["keep_log"])
        return figures


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def minutes_of(start: float, end: float) -> list[tuple[float, float]]:
    """The run's minutes, the last perhaps partial (not the instant after the deadline)."""
    minutes = []
    low = start
    while low < end - 1:
        minutes.append((low, min(end, low + 60)))
        low += 60
    return minutes


def outbox_minute(minute: int, inside: list[Sample]) -> dict[str, str]:
    return {
        "minute": str(minute),
        "outbox_rows": spread([s.outbox_rows for s in inside]),
        "outbox_lag_s": spread([s.outbox_lag for s in inside]),
        "rq_depth": spread([s.rq_depth for s in inside]),
    }


def spread(values: Sequence[float | None]) -> str:
    """'min/median/max' of what was read, to 0.01 ('n/a' when nothing was)."""
    read = [round(v, 2) for v in values if v is not None]
    if not read:
        return "n/a"
    return "/".join(f"{v:g}" for v in (min(read), statistics.median(read), max(read)))


def errors_by_status(play: SoakPlay, final: Status) -> dict[str, int]:
    """API answers >= 400 (stale views apart), requests with no answer, refused streams."""
    errors: Counter[str] = Counter(play.exceptions)
    for code, n in play.statuses.items():
        if code >= 400:
            errors[f"{code}{' (stale view)' if code in STALE else ''}"] += n
    for failure in play.log.failures:
        if failure.what.startswith("probe"):
            errors[failure.what] += 1
    for what, n in (final.refusals + final.failed).items():
        errors[f"stream {what}"] += n
    return dict(sorted(errors.items()))


def server_error(what: str) -> bool:
    """An error of errors_by_status that is a status >= 500: the API's, a probe's, a stream's."""
    status = what.split()[-1]
    return status.isdigit() and int(status) >= 500


def rss_growth(rss: dict[str, dict[str, int]]) -> dict[str, float]:
    """Growth of each serving process from the first minute to the end (one missing at either
    end, restarted, counts as infinite)."""
    before, after = rss.get("after 1 min", {}), rss.get("end", {})
    return {
        name: round(after[name] / before[name] - 1, 4)
        if name in before and name in after
        else math.inf
        for name in sorted(set(before) | set(after))
        if "master" not in name
    }


def run(context: Context, s: Settings) -> Figures:
    figures = Soak(s, context).run()
    first = figures["first_minute_post_p99_ms"]
    figures["post_p99_last_to_first"] = (
        figures["last_minute_post_p99_ms"] / first if first else None
    )
    figures["rss_growth_worst"] = max(rss_growth(figures["rss_bytes"]).values(), default=None)
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
