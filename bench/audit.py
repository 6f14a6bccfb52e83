"""Cardroom audit benchmark: GET /games/{id}/audit on a long St Patrick game (re-deciding every
move included), and events re-decided per second in-process.

    .venv/bin/python -m bench.audit --start            # starts its own service (as make run)
    .venv/bin/python -m bench.audit --url URL --database-url DSN --data-dir DIR

Scenario 1: self-plays basic-bot St Patrick games until one has at least --min-events events
(the longest found otherwise), writes it to the store signed with the service's key, and times
--calls audits (wall time at the client, and the server's own replay_seconds).
Scenario 2: re-decides the logs of --games self-played games of every type in this process.
Goal: audit p50 < 150 ms for a 600-event St Patrick game.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid

from bench.stats import ms, percentile

GOAL_P50_MS = 150.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (as make run)")
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    p.add_argument("--data-dir", default=os.environ.get("DATA_DIR", ".data"))
    p.add_argument("--min-events", type=int, default=600)
    p.add_argument("--search", type=int, default=300, help="St Patrick games to try at most")
    p.add_argument("--calls", type=int, default=30)
    p.add_argument("--games", type=int, default=50, help="games per type for scenario 2")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


def records_of(events: list) -> list[dict]:
    """Events as export records (what the re-decider reads), JSON round-tripped."""
    import json

    from domain.kit.codec import canonical_json, to_json

    return [
        {
            "version": version,
            "type": type(e).__name__,
            "seat": e.actor(),
            "visible_to": None if e.visible_to() is None else list(e.visible_to()),
            "data": json.loads(canonical_json(to_json(e))),
        }
        for version, e in enumerate(events, start=1)
    ]


def long_st_patrick_game(args: argparse.Namespace):
    from domain.games import GAME_TYPES
    from domain.tables.selfplay import play_out

    game_type, best = GAME_TYPES["st_patrick"], None
    for i in range(args.search):
        players = 3 + i % 2
        table, events = play_out(game_type, ["basic"] * players, random.Random(f"{args.seed}:{i}"))
        if best is None or len(events) > len(best[1]):
            best = (table, events)
        print(f"\rsearching: game {i + 1}/{args.search}, longest {len(best[1])} events",
              end="", file=sys.stderr, flush=True)  # fmt: skip
        if len(best[1]) >= args.min_events:
            break
    print(file=sys.stderr)
    return best


def scenario_http(args: argparse.Namespace, url: str, database_url: str, data_dir: str) -> dict:
    import psycopg
    import requests

    from events.audit.signing import load_or_create_signer
    from events.operations.settings import Settings
    from events.postgres import store
    from events.records import new_events

    table, events = long_st_patrick_game(args)
    signer = load_or_create_signer(Settings(data_dir=data_dir).audit_key_path)
    game_id = uuid.uuid4()
    with psycopg.connect(database_url) as conn, conn.transaction():
        store.create_stream(conn, game_id, "st_patrick")
        store.append(conn, game_id, 0, new_events(events), sign=signer.sign)
        store.set_stream_status(conn, game_id, table.status)
    walls, replays, session = [], [], requests.Session()
    for call in range(args.calls):
        started = time.perf_counter()
        response = session.get(f"{url}/games/{game_id}/audit", timeout=30)
        walls.append(time.perf_counter() - started)
        report = response.json()
        replays.append(report["replay_seconds"])
        print(f"\raudits: {call + 1}/{args.calls}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    good = all(report[k] for k in ("chain_ok", "rules_ok", "state_matches", "signature_ok"))
    return {
        "audit_events": report["events_verified"],
        "audit_all_checks_pass": good,
        "audit_wall_p50_ms": ms(percentile(walls, 50)),
        "audit_wall_p95_ms": ms(percentile(walls, 95)),
        "audit_server_check_p50_ms": ms(percentile(replays, 50)),
        "audit_server_events_per_s": report["events_verified"] / percentile(replays, 50),
    }


def scenario_redecide(args: argparse.Namespace) -> dict:
    from domain.games import GAME_TYPES
    from domain.tables.selfplay import play_out
    from events.audit.redecide import redecide

    figures = {}
    for game_type in GAME_TYPES.values():
        level = "basic" if "basic" in game_type.bot_levels else game_type.bot_levels[0]
        logs = [
            records_of(play_out(game_type, [level] * game_type.min_players,
                                random.Random(f"{args.seed}:{game_type.id}:{i}"))[1])
            for i in range(args.games)
        ]  # fmt: skip
        started = time.perf_counter()
        assert all(redecide(log).ok for log in logs)
        seconds = time.perf_counter() - started
        events = sum(len(log) for log in logs)
        figures[f"redecided_events_per_s_{game_type.id}"] = events / seconds
        print(f"re-decided {args.games} {game_type.id} games", file=sys.stderr)
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    figures = scenario_redecide(args)
    if args.start:
        from bench.service import started_service

        with started_service() as service:
            figures |= scenario_http(args, service.url, service.database_url, service.data_dir)
    elif args.database_url:
        figures |= scenario_http(args, args.url, args.database_url, args.data_dir)
    else:
        print("no --database-url: the HTTP audit is skipped", file=sys.stderr)
    for name, value in figures.items():
        print(f"{name:36} {value:.1f}" if isinstance(value, float) else f"{name:36} {value}")
    if "audit_wall_p50_ms" not in figures:
        return 0
    ok = figures["audit_wall_p50_ms"] < GOAL_P50_MS and figures["audit_all_checks_pass"]
    print(f"goal: audit p50 < {GOAL_P50_MS:.0f} ms for {figures['audit_events']} events:"
          f" {'PASS' if ok else 'FAIL'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
