"""The public log at size: `--leaves` finished games (1,000,000 by default) appended by the
real write path (PublicLog.append_pending, batches of 1,000, each signed), then the figures
of issue 54: append p95 (one finished game at a time, on the full tree), inclusion and
consistency proof p95 (goal < 20 ms) through the service and through the HTTP routes
(Flask's in-process client: the route, the schema and the JSON, no socket), checkpoint
signing cost, and storage per leaf.

Runs on a database of its own on DATABASE_URL's server, dropped afterwards:

    .venv/bin/python -m embedded.with_services --temp -- .venv/bin/python -m bench.public_log
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg

from bench.stats import Counter, Progress, ms, percentile
from events.audit.log_format import Checkpoint, sign_checkpoint
from events.audit.signing import load_or_create_signer
from events.operations.settings import Settings
from events.postgres.db import make_pool
from events.public_log import APPEND_BATCH, PublicLog
from testing.databases import temporary_database

GOAL_PROOF_P95_MS = 20.0
Get = Callable[[str], object]  # GET of a path through the app
LOG_TABLES = ("log_leaves", "log_subtrees", "log_checkpoints")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--leaves", type=int, default=1_000_000)
    p.add_argument("--appends", type=int, default=300, help="single-game appends timed")
    p.add_argument("--proofs", type=int, default=1000, help="proofs of each kind timed")
    p.add_argument("--signatures", type=int, default=2000)
    p.add_argument("--seed", type=int, default=54)
    p.add_argument("--json", help="write every figure to this file")
    return p.parse_args(argv)


def finish_games(url: str, count: int) -> None:
    """`count` finished games' stream rows (the migration's trigger queues each for the log),
    in one statement: the games themselves are not what is measured."""
    with psycopg.connect(url) as conn:
        conn.execute(
            "INSERT INTO streams (game_id, game_type, status, version, head_hash)"
            " SELECT gen_random_uuid(), 'st_patrick', 'finished', 100 + i %% 500,"
            " md5(i::text) || md5((-i)::text) FROM generate_series(1, %s) AS i",
            (count,),
        )


def fill(url: str, log: PublicLog, leaves: int) -> list[float]:
    """Appends `leaves` games in batches as the appender does; each batch's seconds."""
    done, batches = Counter(), []
    chunk = 100_000  # games queued at a time, so the progress line moves from the start

    def line(elapsed: float) -> str:
        rate = done.value / elapsed if elapsed else 0.0
        return f"appended {done.value:,}/{leaves:,} leaves ({rate:,.0f}/s, {elapsed:.0f} s)"

    with Progress(line):
        while done.value < leaves:
            finish_games(url, min(chunk, leaves - done.value))
            while True:
                started = time.perf_counter()
                taken = log.append_pending(APPEND_BATCH)
                if not taken:
                    break
                batches.append(time.perf_counter() - started)
                done.add(taken)
    return batches


def p95_ms(calls: list[Callable[[], object]]) -> float:
    seconds = []
    for call in calls:
        started = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - started)
    return ms(percentile(seconds, 95))


def single_appends(url: str, log: PublicLog, count: int) -> list[float]:
    """One finished game per append (a quiet service), each with its signed checkpoint."""
    seconds = []
    for _ in range(count):
        finish_games(url, 1)
        started = time.perf_counter()
        log.append_pending(1)
        seconds.append(time.perf_counter() - started)
    return seconds


def sampled_games(url: str, rng: random.Random, size: int, count: int) -> list[tuple[str, int]]:
    with psycopg.connect(url) as conn:
        indexes = [rng.randrange(size) for _ in range(count)]
        rows = conn.execute(
            "SELECT game_id, index FROM log_leaves WHERE index = ANY(%s)", (indexes,)
        ).fetchall()
    return [(str(game_id), index) for game_id, index in rows]


def storage_bytes(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {
            table: conn.execute("SELECT pg_total_relation_size(%s)", (table,)).fetchone()[0]
            for table in LOG_TABLES
        }


def proof_figures(
    log: PublicLog, games: list[tuple[str, int]], rng: random.Random, http: Get | None
) -> dict[str, float]:
    size = log.size()
    inclusions = [(g, rng.randrange(i + 1, size + 1)) for g, i in games]
    pairs = [sorted((rng.randrange(1, size + 1), rng.randrange(1, size + 1))) for _ in games]
    figures = {
        "inclusion_p95_ms": p95_ms([lambda g=g, s=s: log.inclusion(g, s) for g, s in inclusions]),
        "consistency_p95_ms": p95_ms([lambda a=a, b=b: log.consistency(a, b) for a, b in pairs]),
    }
    if http is not None:
        inclusion = [f"/log/proof/inclusion?game={g}&size={s}" for g, s in inclusions]
        consistency = [f"/log/proof/consistency?from={a}&to={b}" for a, b in pairs]
        figures["http_inclusion_p95_ms"] = p95_ms([lambda u=u: http(u) for u in inclusion])
        figures["http_consistency_p95_ms"] = p95_ms([lambda u=u: http(u) for u in consistency])
        figures["http_checkpoint_p95_ms"] = p95_ms([lambda: http("/log/checkpoint")] * len(games))
    return figures


def in_process_http(url: str, key_file: str) -> Get | None:
    """GET through the app's routes in this process (Flask's test client), or None without
    Redis (the app needs it for its limits, off here)."""
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        print("no REDIS_URL: the HTTP routes are not measured", file=sys.stderr)
        return None
    from api import create_app

    settings = Settings(database_url=url, redis_url=redis_url, audit_key_file=key_file,
                        rate_limits="off", log_level="WARNING")  # fmt: skip
    client = create_app(settings).test_client()

    def get(path: str) -> object:
        response = client.get(path)
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_data()

    return get


def signing_cost(key_file: str, count: int) -> float:
    signer = load_or_create_signer(key_file)
    checkpoint = Checkpoint("cardroom.localhost/log", 10**6, bytes(32))
    started = time.perf_counter()
    for _ in range(count):
        sign_checkpoint(checkpoint, signer)
    return (time.perf_counter() - started) / count


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    server = os.environ.get("DATABASE_URL")
    if not server:
        sys.exit("DATABASE_URL is not set (run it under python -m embedded.with_services)")
    key_file = str(Path(tempfile.mkdtemp(prefix="bench-log-")) / "audit-key.pem")
    name = f"bench_public_log_{uuid.uuid4().hex[:8]}"
    with temporary_database(server, name) as url:
        pool = make_pool(url, 4)
        log = PublicLog(pool, load_or_create_signer(key_file), "cardroom.localhost/log")
        started = time.perf_counter()
        batches = fill(url, log, args.leaves)
        figures: dict[str, float] = {
            "filled": log.size(),
            "fill_seconds": time.perf_counter() - started,
            "batch_append_p95_ms": ms(percentile(batches, 95)),
            "batch_size": APPEND_BATCH,
        }
        print(f"timing {args.appends} single-game appends", file=sys.stderr)
        figures["append_p95_ms"] = ms(percentile(single_appends(url, log, args.appends), 95))
        games = sampled_games(url, rng, log.size(), args.proofs)
        print(f"timing {len(games)} proofs of each kind", file=sys.stderr)
        figures |= proof_figures(log, games, rng, in_process_http(url, key_file))
        figures["sign_checkpoint_ms"] = ms(signing_cost(key_file, args.signatures))
        figures["leaves"] = log.size()  # the filled ones and those appended one at a time
        stored = storage_bytes(url)
        figures |= {f"{table}_bytes": size for table, size in stored.items()}
        figures["bytes_per_leaf"] = sum(stored.values()) / figures["leaves"]
        pool.close()
    for key, value in figures.items():
        print(f"{key:28} {value:,.3f}" if isinstance(value, float) else f"{key:28} {value:,}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    proofs = [v for k, v in figures.items() if k.endswith(("inclusion_p95_ms", "tency_p95_ms"))]
    ok = all(p < GOAL_PROOF_P95_MS for p in proofs)
    print(f"goal: inclusion and consistency proof p95 < {GOAL_PROOF_P95_MS:.0f} ms:"
          f" {'PASS' if ok else 'FAIL'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
