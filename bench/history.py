"""A year of history: does the store stay fast once it holds 100,000 finished games?

    .venv/bin/python -m bench.history                      # 100,000 games, then measure, then drop
    .venv/bin/python -m bench.history --games 1000 --keep  # a small one, kept for another run
    .venv/bin/python -m bench.history --drop               # drop the bench's databases

Loads, into a database of its own (`--database`, on the server of DATABASE_URL; never the
tests'), --games finished games and --active tables in play or waiting for a player, each
played for real by the service's command code (bench/history_games.py) and written through the
Postgres store's write path with its stream row, snapshot, seat tokens, players' seats and
notices, chained, signed and auditable (bench/history_load.py). Chunks of games go in one
transaction each: a load stopped at any point goes on where it stopped when run again with the
same --games, --active and --seed.

A second database, `<database>_empty`, holds the same active tables and the games audited, and
none of the history. Then, on each store through a service started as `make run` starts it:
POST action p50 and p99, GET /games?status=waiting, a finished game's /audit (computed, and
kept) and /export, the outbox relay's lag, and the start-up time (migrations included). Prints
the ratios history / empty (goal <= 1.2), the disk bytes per event and the size of every index.
Both databases are dropped at the end unless --keep.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench import history_load as load
from bench import history_measure as measure
from bench.history_sizes import print_sizes
from bench.stats import Progress


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=100_000, help="finished games in the history")
    p.add_argument("--active", type=int, default=1_000, help="tables in play or waiting")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database", default="cardroom_history", help="the bench's database")
    p.add_argument(
        "--server-url",
        default=os.environ.get("DATABASE_URL", ""),
        help="a Postgres server the bench may create databases on (DATABASE_URL)",
    )
    p.add_argument("--workers", type=int, default=2, help="processes playing games")
    p.add_argument("--samples", type=int, default=20, help="finished games audited")
    p.add_argument("--rounds", type=int, default=3, help="measuring rounds")
    p.add_argument("--actions", type=int, default=600, help="actions (per store, round)")
    p.add_argument("--clients", type=int, default=2, help="threads playing them")
    p.add_argument("--list-calls", type=int, default=100, help="waiting lists (per store, round)")
    p.add_argument("--relay-games", type=int, default=2, help="1-human 3-bot games (ditto)")
    p.add_argument("--starts", type=int, default=5, help="start-ups timed per store")
    p.add_argument("--load-only", action="store_true", help="load, print the sizes, stop")
    p.add_argument("--keep", action="store_true", help="keep the databases at the end")
    p.add_argument("--drop", action="store_true", help="drop the databases, and nothing else")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.server_url:
        print("set DATABASE_URL (or --server-url) to a Postgres server", file=sys.stderr)
        return 2
    if args.database.startswith("cardroom_test"):
        print("--database must not be one of the tests' databases", file=sys.stderr)
        return 2
    names = (args.database, f"{args.database}_empty")
    if args.drop:
        for name in names:
            load.drop_database(args.server_url, name)
        print(f"dropped {', '.join(names)}")
        return 0
    plan = load.Plan(args.seed, args.games, args.active)
    history_url, plan, history_key = load_store(args, names[0], plan, None)
    indexes = [*plan.samples(args.samples), *range(plan.games, plan.games + plan.active)]
    empty_url, _, empty_key = load_store(args, names[1], plan, indexes)
    print_sizes(history_url)
    if args.load_only:
        return 0
    try:
        return compare(args, plan, (empty_url, empty_key), (history_url, history_key))
    finally:
        if not args.keep:
            for name in names:
                load.drop_database(args.server_url, name)
            print(f"dropped {', '.join(names)} (--keep keeps them)")


def load_store(
    args: argparse.Namespace, name: str, plan: load.Plan, indexes: list[int] | None
) -> tuple[str, load.Plan, str]:
    """The store `name` loaded with the plan's games (or those `indexes` alone): its URL, the
    plan it holds and its signing key (PEM)."""
    url = load.with_database(args.server_url, name)
    if not load.database_exists(args.server_url, name):
        load.create_database(args.server_url, name)
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
    with multiprocessing.get_context("fork").Pool(args.workers) as pool, Progress(render):
        for games, events in pool.imap_unordered(load.load_chunk, jobs):
            counts["games"] += games
            counts["events"] += events
    print(f"{name}: {len(jobs)} chunks loaded in {time.perf_counter() - started:.0f} s;"
          " vacuum and analyze...", flush=True)  # fmt: skip
    load.finish(url)
    return url, plan, key_pem


def compare(
    args: argparse.Namespace,
    plan: load.Plan,
    empty: tuple[str, str],
    history: tuple[str, str],
) -> int:
    samples_to_audit = [plan.spec(i, plan.players()).game_id for i in plan.samples(args.samples)]
    with tempfile.TemporaryDirectory(prefix="cardroom-history-") as keys:
        stores = []
        for name, (url, pem) in (("empty", empty), ("history", history)):
            key_file = Path(keys) / f"{name}.pem"
            key_file.write_text(pem)
            key_file.chmod(0o600)
            stores.append(measure.Store(name, url, str(key_file), samples_to_audit))
        figures = {store.name: measure.Samples() for store in stores}
        for start in range(args.starts):
            for store in stores if start % 2 == 0 else stores[::-1]:
                print(f"start-up {start + 1}/{args.starts}: {store.name}", flush=True)
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
            warm_up(args, targets)
            for number in range(args.rounds):
                print(f"round {number + 1}/{args.rounds}", flush=True)
                run_round(args, targets, number)
    lines, met = measure.ratio_table(figures["empty"], figures["history"])
    print()
    print("\n".join(lines))
    counts = {k: len(v) for k, v in figures["history"].values.items()}
    print(f"samples per store: {counts}")
    return 0 if met else 1


def warm_up(args: argparse.Namespace, targets: list[measure.Target]) -> None:
    """A short round whose figures are thrown away."""
    print("warming up", flush=True)
    thrown = [replace(t, samples=measure.Samples()) for t in targets]
    short = [replace(t, store=replace(t.store, samples_to_audit=t.store.samples_to_audit[:2]))
             for t in thrown]  # fmt: skip
    measure.measure_actions(thrown, 40, 1, args.seed)
    measure.measure_waiting_list(thrown, 5)
    measure.measure_audits(short)
    measure.measure_relay(thrown, 1, args.seed)


def run_round(args: argparse.Namespace, targets: list[measure.Target], number: int) -> None:
    seed = args.seed * 1000 + number
    measure.measure_actions(targets, args.actions, args.clients, seed)
    shown = measure.measure_waiting_list(targets, args.list_calls)
    if 0 in shown.values() or len(set(shown.values())) > 1:
        raise SystemExit(f"GET /games?status=waiting showed pages of {shown} tables")
    measure.measure_audits(targets)
    measure.measure_relay(targets, args.relay_games, seed)


if __name__ == "__main__":
    sys.exit(main())
