"""The public log at size: `leaves` finished games appended by the real write path (batches of
1,000, each signed), then issue 54's figures: append p95 (one game at a time, on the full tree),
proof p95 through the service and through the HTTP routes (Flask's in-process client: no
socket), checkpoint signing cost and storage per leaf; on a scratch database, dropped after."""

from __future__ import annotations

import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import psycopg

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.stats import Counter, Progress, mean_seconds, ms, percentile, timed
from events.audit.log_format import Checkpoint, sign_checkpoint
from events.audit.signing import load_or_create_signer
from events.operations.settings import Settings as ServiceSettings
from events.postgres.db import make_pool
from events.public_log import APPEND_BATCH, PublicLog
from testing.databases import temporary_database

Get = Callable[[str], object]  # GET of a path through the app
LOG_TABLES = ("log_leaves", "log_subtrees", "log_checkpoints")


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
    return ms(percentile([timed(call) for call in calls], 95))


def single_appends(url: str, log: PublicLog, count: int) -> list[float]:
    """One finished game per append (a quiet service), each with its signed checkpoint."""
    seconds = []
    for _ in range(count):
        finish_games(url, 1)
        seconds.append(timed(partial(log.append_pending, 1)))
    return seconds


def sampled_games(url: str, rng: random.Random, size: int, count: int) -> list[tuple[str, int]]:
    with psycopg.connect(url) as conn:
        indexes = [rng.randrange(size) for _ in range(count)]
        rows = conn.execute(
            "SELECT game_id, index FROM log_leaves WHERE index = ANY(%s)", (indexes,)
        ).fetchall()
    return [(str(game_id), index) for game_id, index in rows]


def storage_bytes(url: str) -> dict[str, int]:
    query = "SELECT t, pg_total_relation_size(t::regclass) FROM unnest(%s::text[]) AS t"
    with psycopg.connect(url) as conn:
        rows = conn.execute(query, (list(LOG_TABLES),)).fetchall()
    return {str(table): int(str(size)) for table, size in rows}


def proof_figures(
    log: PublicLog, games: list[tuple[str, int]], rng: random.Random, http: Get | None
) -> dict[str, float]:
    size = log.size()
    inclusions = [(g, rng.randrange(i + 1, size + 1)) for g, i in games]
    pairs = [sorted((rng.randrange(1, size + 1), rng.randrange(1, size + 1))) for _ in games]
    figures = {
        "inclusion_p95_ms": p95_ms([partial(log.inclusion, g, s) for g, s in inclusions]),
        "consistency_p95_ms": p95_ms([partial(log.consistency, a, b) for a, b in pairs]),
    }
    if http is not None:
        inclusion = [f"/log/proof/inclusion?game={g}&size={s}" for g, s in inclusions]
        consistency = [f"/log/proof/consistency?from={a}&to={b}" for a, b in pairs]
        figures["http_inclusion_p95_ms"] = p95_ms([partial(http, u) for u in inclusion])
        figures["http_consistency_p95_ms"] = p95_ms([partial(http, u) for u in consistency])
        figures["http_checkpoint_p95_ms"] = p95_ms([partial(http, "/log/checkpoint")] * len(games))
    return figures


def in_process_http(url: str, key_file: str, redis_url: str | None) -> Get | None:
    """GET through the app's routes in this process (Flask's test client), or None without
    Redis (the app needs it for its limits, off here)."""
    if not redis_url:
        print("no REDIS_URL: the HTTP routes are not measured", file=sys.stderr)
        return None
    from api import create_app

    settings = ServiceSettings(database_url=url, redis_url=redis_url, audit_key_file=key_file,
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
    return mean_seconds(lambda _: sign_checkpoint(checkpoint, signer), count)


def run(context: Context, s: Settings) -> Figures:
    service = context.require_service()
    rng = random.Random(s["seed"])
    key_file = str(Path(tempfile.mkdtemp(prefix="bench-log-")) / "audit-key.pem")
    name = f"bench_public_log_{uuid.uuid4().hex[:8]}"
    with temporary_database(service.database_url or "", name) as url:
        pool = make_pool(url, 4)
        log = PublicLog(pool, load_or_create_signer(key_file), "cardroom.localhost/log")
        started = time.perf_counter()
        batches = fill(url, log, s["leaves"])
        figures: dict[str, Any] = {
            "filled": log.size(),
            "fill_seconds": round(time.perf_counter() - started, 1),
            "batch_append_p95_ms": round(ms(percentile(batches, 95)), 2),
        }
        print(f"timing {s['appends']} single-game appends", file=sys.stderr)
        figures["append_p95_ms"] = ms(percentile(single_appends(url, log, s["appends"]), 95))
        games = sampled_games(url, rng, log.size(), s["proofs"])
        figures |= proof_figures(log, games, rng, in_process_http(url, key_file, service.redis_url))
        figures["sign_checkpoint_ms"] = ms(signing_cost(key_file, s["signatures"]))
        figures["leaves"] = log.size()  # the filled ones and those appended one at a time
        stored = storage_bytes(url)
        figures |= {f"{table}_bytes": size for table, size in stored.items()}
        figures["bytes_per_leaf"] = sum(stored.values()) / figures["leaves"]
        pool.close()
    proofs = ("inclusion_p95_ms", "consistency_p95_ms")
    figures["worst_proof_p95_ms"] = max(v for k, v in figures.items() if k.endswith(proofs))
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


BENCHMARK = Benchmark(
    name="public_log",
    about="the public log of finished games at a million leaves: appends, proofs, signing, "
    "storage",
    run=run,
    needs_service=True,
    settings={"leaves": (1_000_000, 2_500), "appends": (300, 5), "proofs": (1000, 30),
        "signatures": (2000, 10), "seed": 54},
    goals=[
        Goal("worst_proof_p95_ms", "<", 20, "ms", "inclusion and consistency proof p95 < 20 ms at "
            "1,000,000 leaves (through the service and through the HTTP routes)"),
    ],
)  # fmt: skip
