"""The raw single-event append rate of a Postgres (INSERT + COMMIT loops into a scratch table
shaped like `events`): the ceiling an event-sourced API can reach."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from bench.support.benchmark import Benchmark, Context, Figures, Settings
from bench.support.stats import in_threads

DATA = {"seat": 1, "card": {"suit": "red", "rank": 7}, "snipe": False}  # a typical CardPlayed
CREATE = (
    "CREATE TABLE IF NOT EXISTS {} (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " game_id uuid NOT NULL, version int NOT NULL, type text NOT NULL, data jsonb NOT NULL,"
    " recorded_at timestamptz NOT NULL DEFAULT now(), UNIQUE (game_id, version))"
)
INSERT = "INSERT INTO {} (game_id, version, type, data) VALUES (%s, %s, %s, %s)"


@dataclass
class RawResult:
    appends: int
    seconds: float
    threads: int

    @property
    def rate(self) -> float:
        return self.appends / self.seconds if self.seconds else 0.0


@contextmanager
def scratch_table(database_url: str) -> Iterator[sql.Composed]:
    """The INSERT into a table shaped like `events`, dropped on exit."""
    table = sql.Identifier(f"bench_raw_append_{os.getpid()}")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL(CREATE).format(table))
        try:
            yield sql.SQL(INSERT).format(table)
        finally:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))


def measure_raw_appends(database_url: str, threads: int, seconds: float) -> RawResult:
    counts = [0] * threads
    began: list[float] = []  # set once every thread is connected
    start = threading.Barrier(threads, action=lambda: began.append(time.perf_counter()), timeout=60)

    def append(index: int, insert: sql.Composed) -> None:
        game = uuid.uuid4()
        with psycopg.connect(database_url) as conn:
            start.wait()
            while time.perf_counter() < began[0] + seconds:
                counts[index] += 1
                conn.execute(insert, (game, counts[index], "CardPlayed", Jsonb(DATA)))
                conn.commit()

    with scratch_table(database_url) as insert:
        in_threads(append, [(index, insert) for index in range(threads)])
        return RawResult(sum(counts), time.perf_counter() - began[0], threads)


def run(context: Context, s: Settings) -> Figures:
    result = measure_raw_appends(context.require_service().database_url or "", s["threads"],
                                 s["seconds"])  # fmt: skip
    return {"threads": result.threads, "appends": result.appends,
            "appends_per_s": round(result.rate, 1)}  # fmt: skip


BENCHMARK = Benchmark(
    name="raw_append",
    about="the raw single-event INSERT+COMMIT rate of the service's Postgres (no goal: the "
    "actions bench's ceiling)",
    run=run,
    needs_service=True,
    settings={"threads": 8, "seconds": (10.0, 1.0)},
)  # fmt: skip
