"""A year of history: does the store stay fast once it holds 100,000 finished games?

Loads, into a database of its own (`database`, on the server of the runner's service or of
DATABASE_URL; never the tests'), `games` finished games and `active` tables in play or waiting
for a player, each played for real by the service's command code (bench/history_games.py) and
written through the Postgres store's write path with its stream row, snapshot, seat tokens,
players' seats and notices, chained, signed and auditable (bench/history_load.py). Chunks of
games go in one transaction each: a load stopped at any point goes on where it stopped when run
again with the same `games`, `active` and `seed`. A second database, `<database>_empty`, holds
the same active tables and the games audited, and none of the history. Then, on each store
through a service started as `make run` starts it: POST action p50 and p99,
GET /games?status=waiting, a finished game's /audit (computed, and kept) and /export, the
outbox relay's lag, and the start-up time (migrations included): the ratios history / empty,
the disk bytes per event and the size of every index. Both databases are dropped at the end
unless `keep`; `load_only` loads and stops."""

from __future__ import annotations

import multiprocessing
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench import history_load as load
from bench import history_measure as measure
from bench.history_sizes import print_sizes
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings, Skip
from bench.support.stats import Progress
from testing.databases import with_database


def run(context: Context, s: Settings) -> Figures:
    server = context.database_url
    if not server:
        raise Skip("needs a Postgres server: the runner's service, or DATABASE_URL")
    if s["database"].startswith("cardroom_test"):
        raise Skip("`database` must not be one of the tests' databases")
    names = (s["database"], f"{s['database']}_empty")
    plan = load.Plan(s["seed"], s["games"], s["active"])
    history_url, plan, history_key = load_store(s, server, names[0], plan, None)
    indexes = [*plan.samples(s["samples"]), *range(plan.games, plan.games + plan.active)]
    empty_url, _, empty_key = load_store(s, server, names[1], plan, indexes)
    figures = print_sizes(history_url)
    if s["load_only"]:
        return figures
    try:
        return figures | compare(s, plan, (empty_url, empty_key), (history_url, history_key))
    finally:
        if not s["keep"]:
            for name in names:
                load.drop_database(server, name)


def load_store(
    s: Settings, server: str, name: str, plan: load.Plan, indexes: list[int] | None
) -> tuple[str, load.Plan, str]:
    """The store `name` loaded with the plan's games (or those `indexes` alone): its URL, the
    plan it holds and its signing key (PEM)."""
    url = with_database(server, name)
    if not load.database_exists(server, name):
        load.create_database(server, name)
    plan, key_pem = load.prepare(url, plan)
    if load.is_finished(url):
        print(f"{name}: loaded before")
        return url, plan, key_pem
    with load.connected(url) as conn:
        done = load.loaded_chunks(conn)
    chunks = [c for c in plan.chunks(indexes) if c[0] not in done]
    total = sum(len(i) for _, i in plan.chunks(indexes))
    jobs = [load.ChunkJob(url, plan, key_pem, number, chunk) for number, chunk in chunks]
    counts = {"games": total - sum(len(j.indexes) for j in jobs), "events": 0}
    first = counts["games"]

    def render(elapsed: float) -> str:
        rate = (counts["games"] - first) / elapsed if elapsed else 0.0
        left = (total - counts["games"]) / rate if rate else float("inf")
        return (f"{name}: {counts['games']:,}/{total:,} games, {counts['events']:,} events"
                f" this run, {rate:.1f} games/s, about {left / 60:.0f} min left")  # fmt: skip

    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(s["workers"]) as pool, Progress(render):
        for games, events in pool.imap_unordered(load.load_chunk, jobs):
            counts["games"] += games
            counts["events"] += events
    print(f"{name}: {len(jobs)} chunks loaded in {time.perf_counter() - started:.0f} s;"
          " vacuum and analyze...", flush=True)  # fmt: skip
    load.finish(url)
    return url, plan, key_pem


def compare(
    s: Settings, plan: load.Plan, empty: tuple[str, str], history: tuple[str, str]
) -> Figures:
    samples_to_audit = [plan.spec(i, plan.players()).game_id for i in plan.samples(s["samples"])]
    with tempfile.TemporaryDirectory(prefix="cardroom-history-") as keys:
        stores = []
        for name, (url, pem) in (("empty", empty), ("history", history)):
            key_file = Path(keys) / f"{name}.pem"
            key_file.write_text(pem)
            key_file.chmod(0o600)
            stores.append(measure.Store(name, url, str(key_file), samples_to_audit))
        figures = {store.name: measure.Samples() for store in stores}
        for start in range(s["starts"]):
            for store in stores if start % 2 == 0 else stores[::-1]:
                print(f"start-up {start + 1}/{s['starts']}: {store.name}", flush=True)
                measure.measure_startup(store, figures[store.name])
        with (
            measure.timed_service(stores[0], figures["empty"]) as first,
            measure.timed_service(stores[1], figures["history"]) as second,
        ):
            targets = [
                measure.Target(stores[0], first.url, figures["empty"]),
                measure.Target(stores[1], second.url, figures["history"]),
            ]
            # The first calls of a process pay for its imports and pools: thrown away.
            warm_up(s, targets)
            for number in range(s["rounds"]):
                print(f"round {number + 1}/{s['rounds']}", flush=True)
                run_round(s, targets, number)
    counts = {k: len(v) for k, v in figures["history"].values.items()}
    return measure.ratios(figures["empty"], figures["history"]) | {"samples_per_store": counts}


def warm_up(s: Settings, targets: list[measure.Target]) -> None:
    """A short round whose figures are thrown away."""
    print("warming up", flush=True)
    thrown = [replace(t, samples=measure.Samples()) for t in targets]
    short = [replace(t, store=replace(t.store, samples_to_audit=t.store.samples_to_audit[:2]))
             for t in thrown]  # fmt: skip
    measure.measure_actions(thrown, 40, 1, s["seed"])
    measure.measure_waiting_list(thrown, 5)
    measure.measure_audits(short)
    measure.measure_relay(thrown, 1, s["seed"])


def run_round(s: Settings, targets: list[measure.Target], number: int) -> None:
    seed = s["seed"] * 1000 + number
    measure.measure_actions(targets, s["actions"], s["clients"], seed)
    shown = measure.measure_waiting_list(targets, s["list_calls"])
    if 0 in shown.values() or len(set(shown.values())) > 1:
        raise SystemExit(f"GET /games?status=waiting showed pages of {shown} tables")
    measure.measure_audits(targets)
    measure.measure_relay(targets, s["relay_games"], seed)


BENCHMARK = Benchmark(
    name="history",
    about="a year of history (100,000 finished games) against an empty store, call by call",
    run=run,
    needs_service=True,
    settings={"games": (100_000, 20), "active": (1_000, 60), "seed": 1,
        "database": "cardroom_history", "workers": (2, 1), "samples": (20, 2), "rounds": (3, 1),
        "actions": (600, 20), "clients": 2, "list_calls": (100, 5), "relay_games": (2, 1),
        "starts": (5, 1), "load_only": False, "keep": False},
    goals=[
        Goal(
            measure.figure_name(f),
            "<=",
            measure.GOAL,
            "x",
            f"{f.label}: history / empty <= {measure.GOAL}",
        )
        for f in measure.FIGURES
    ],
)  # fmt: skip
