"""The raw single-event append rate of a Postgres: N threads, each a loop of one INSERT and a
COMMIT into a scratch table shaped like `events`. The ceiling an event-sourced API can reach."""

from __future__ import annotations

import os
import threading
import time
import uuid
from dataclasses import dataclass

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from bench.support.benchmark import Benchmark, Context, Figures, Settings

DATA = {"seat": 1, "card": {"suit": "red", "rank": 7}, "snipe": False}  # a typical CardPlayed


@dataclass
class RawResult:
    appends: int
    seconds: float
    threads: int

    @property
    def rate(self) -> float:
        return self.appends / self.seconds if self.seconds else 0.0


def _scratch_table() -> sql.Identifier:
    return sql.Identifier(f"bench_raw_append_{os.getpid()}")


def _create(database_url: str, table: sql.Identifier) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (id bigint GENERATED ALWAYS AS IDENTITY"
                " PRIMARY KEY, game_id uuid NOT NULL, version int NOT NULL, type text NOT NULL,"
                " data jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(),"
                " UNIQUE (game_id, version))"
            ).format(table)
        )


def _drop(database_url: str, table: sql.Identifier) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))


def _appender(
    database_url: str, table: sql.Identifier, start: threading.Barrier, until: list[float]
) -> int:
    insert = sql.SQL("INSERT INTO {} (game_id, version, type, data) VALUES (%s, %s, %s, %s)")
    query = insert.format(table)
    game = uuid.uuid4()
    count = 0
    with psycopg.connect(database_url) as conn:
        start.wait()
        while time.perf_counter() < until[0]:
            count += 1
            conn.execute(query, (game, count, "CardPlayed", Jsonb(DATA)))
            conn.commit()
    return count


def measure_raw_appends(database_url: str, threads: int, seconds: float) -> RawResult:
    table = _scratch_table()
    _create(database_url, table)
    counts = [0] * threads
    start = threading.Barrier(threads + 1, timeout=60)
    until = [0.0]

    def work(i: int) -> None:
        counts[i] = _appender(database_url, table, start, until)

    workers = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(threads)]
    try:
        for worker in workers:
            worker.start()
        until[0] = time.perf_counter() + seconds + 3600  # set for real once all are connected
        start.wait()
        began = time.perf_counter()
        until[0] = began + seconds
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - began
    finally:
        _drop(database_url, table)
    return RawResult(sum(counts), elapsed, threads)


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
