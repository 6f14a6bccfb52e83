"""GET /games/{id}/audit of a long St Patrick game written to the store signed with the
service's key, re-deciding every move: wall time and the server's replay_seconds; and the
events re-decided per second in-process, every game."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.games import long_st_patrick_game, store_game
from bench.support.players import Api
from bench.support.stats import ms_percentiles
from domain.games import GAME_TYPES
from domain.kit.codec import canonical_json, to_json
from domain.tables.selfplay import play_out
from events.audit.redecide import redecide


def records_of(events: list[Any]) -> list[dict[str, Any]]:
    """Events as export records (what the re-decider reads), JSON round-tripped."""
    return [
        {"version": version, "type": type(e).__name__, "seat": e.actor(),
         "visible_to": None if e.visible_to() is None else list(e.visible_to()),
         "data": json.loads(canonical_json(to_json(e)))}
        for version, e in enumerate(events, start=1)
    ]  # fmt: skip


def redecided_per_second(s: Settings) -> Figures:
    figures = {}
    for game_type in GAME_TYPES.values():
        level = "basic" if "basic" in game_type.bot_levels else game_type.bot_levels[0]
        logs = [
            records_of(play_out(game_type, [level] * game_type.min_players,
                                random.Random(f"{s['seed']}:{game_type.id}:{i}"))[1])
            for i in range(s["games"])
        ]  # fmt: skip
        started = time.perf_counter()
        assert all(redecide(log).ok for log in logs)
        seconds = time.perf_counter() - started
        figures[f"redecided_events_per_s_{game_type.id}"] = round(sum(map(len, logs)) / seconds)
    return figures


def run(context: Context, s: Settings) -> Figures:
    figures = redecided_per_second(s)
    table, events = long_st_patrick_game(s["min_events"], s["search"], s["seed"])
    game_id = store_game(context.require_service(), events, table.status)
    api, walls, replays = Api(context.url), [], []
    for _ in range(s["calls"]):
        started = time.perf_counter()
        report = api.json("GET", f"/games/{game_id}/audit")
        walls.append(time.perf_counter() - started)
        replays.append(report["replay_seconds"])
    checks = ("chain_ok", "rules_ok", "state_matches", "signature_ok")
    return figures | {
        "audit_events": report["events_verified"],
        "audit_all_checks_pass": all(report[k] for k in checks),
        **ms_percentiles("audit_wall", walls, 50, 95),
        **ms_percentiles("audit_server_check", replays, 50),
    }


BENCHMARK = Benchmark(
    name="audit",
    about="GET /games/{id}/audit of a long St Patrick game, re-deciding every move",
    run=run,
    needs_service=True,
    settings={"min_events": (600, 50), "search": (300, 5), "calls": (30, 3), "games": (50, 2),
        "seed": 1},
    goals=[
        Goal("audit_wall_p50_ms", "<", 150, "ms", "`GET /games/{id}/audit` of a 600-event St "
            "Patrick game, re-deciding every move, p50 < 150 ms"),
        Goal("audit_all_checks_pass", "==", True, about="every check of the audit passes"),
    ],
)  # fmt: skip
