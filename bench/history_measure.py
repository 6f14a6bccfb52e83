"""The measures of the history bench (bench/history.py), each taken the same way on the store
with a year of history and on the store without it, through a service started as `make run`
starts it (`python -m embedded.run`, migrations included) on that store.

The two services run side by side and every measure goes from one to the other call by call
(action by action), each first in turn, or (the relay) on both at once: on a shared machine,
whatever else runs weighs on both alike. Measured one store after the other, the same code on
two equal stores differed by up to 20 % between phases.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar
from uuid import UUID

import psycopg

from bench.support.players import Api, TablePlayer, Tally, expect, play_bot_game
from bench.support.service import Service, started_service
from bench.support.stats import in_threads, percentile
from events.postgres.audit_cache import all_passed

ACTION_GAME = "trick_and_snipers"
T = TypeVar("T")
WAITING = "/games?status=waiting"


@dataclass
class Samples:
    """Seconds per measure (name -> samples), for one store."""

    values: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, name: str, seconds: float) -> None:
        with self.lock:
            self.values.setdefault(name, []).append(seconds)

    def extend(self, name: str, seconds: list[float]) -> None:
        with self.lock:
            self.values.setdefault(name, []).extend(seconds)

    def figure(self, name: str, pct: float) -> float:
        return percentile(self.values.get(name, []), pct)


@dataclass(frozen=True)
class Store:
    """A store to measure: its database, its signing key's file, the games to audit."""

    name: str
    url: str
    key_file: str
    samples_to_audit: list[UUID]


def service_settings(store: Store) -> dict[str, str]:
    """The store's database and key, and a queue of its own: two services run side by side."""
    queue = f"bench-history-{os.getpid()}-{store.name}"
    return {"DATABASE_URL": store.url, "AUDIT_KEY_FILE": store.key_file, "RQ_QUEUE": queue}


@contextmanager
def timed_service(store: Store, samples: Samples) -> Iterator[Service]:
    """The service on the store; the seconds from its launch to its first ready answer (the
    migrations run in between) are a `startup` sample."""
    started = time.perf_counter()
    with started_service(service_settings(store)) as service:
        samples.add("startup", time.perf_counter() - started)
        yield service


def measure_startup(store: Store, samples: Samples) -> None:
    with timed_service(store, samples):
        pass


@dataclass(frozen=True)
class Target:
    """A store with its service running, and the samples taken on it."""

    store: Store
    url: str
    samples: Samples


def in_turn(targets: list[T], turn: int) -> list[T]:
    """Both targets, the first one first on even turns: neither always goes first."""
    return targets if turn % 2 == 0 else targets[::-1]


def measure_actions(targets: list[Target], actions: int, clients: int, seed: int) -> None:
    """`clients` threads, each playing a four-human game on each store (a new one when one
    ends) and acting on one then the other, each first in turn, so that a moment when the
    machine is busy falls on both: each POST action's latency is an `action` sample."""

    def client(number: int) -> None:
        players = [
            TablePlayer(Api(t.url, ACTION_GAME), random.Random(f"{seed}/{number}"), "first")
            for t in targets
        ]
        tallies = [Tally() for _ in targets]
        try:
            for turn in range(actions // clients):
                for k in in_turn([0, 1], turn + number):
                    players[k].act(tallies[k])
        finally:
            for player in players:
                player.api.close()
        for target, tally in zip(targets, tallies, strict=True):
            target.samples.extend("action", tally.posts)

    in_threads(client, [(n,) for n in range(clients)])


def measure_waiting_list(targets: list[Target], calls: int) -> dict[str, int]:
    """GET /games?status=waiting, one call on each store in turn; each store's page length."""
    apis = {target.store.name: Api(target.url) for target in targets}
    shown = {}
    for turn in range(calls):
        for target in in_turn(targets, turn):
            response, seconds = apis[target.store.name].call("GET", WAITING)
            expect(response, 200)
            shown[target.store.name] = len(response.json()["games"])
            target.samples.add("waiting", seconds)
    for api in apis.values():
        api.close()
    return shown


def measure_audits(targets: list[Target], again: int = 3) -> None:
    """Each sample game's audit computed afresh (its kept report deleted first), then `again`
    times kept, and as many exports, each call on one store then the other. Every report must
    pass every check: the history is valid."""
    for target in targets:
        with psycopg.connect(target.store.url, autocommit=True) as conn:
            games = target.store.samples_to_audit
            conn.execute("DELETE FROM audit_reports WHERE game_id = ANY(%s)", (games,))
    apis = {target.store.name: Api(target.url) for target in targets}
    for turn, game_id in enumerate(targets[0].store.samples_to_audit):
        calls = [("audit", "audit")] + [("audit_kept", "audit"), ("export", "export")] * again
        for number, (name, path) in enumerate(calls):
            for target in in_turn(targets, turn + number):
                seconds = _timed_call(apis[target.store.name], game_id, path)
                target.samples.add(name, seconds)
    for api in apis.values():
        api.close()


def _timed_call(api: Api, game_id: UUID, path: str) -> float:
    """GET /games/{id}/audit or /export; an audit must pass every check."""
    response, seconds = api.call("GET", f"/games/{game_id}/{path}")
    expect(response, 200)
    if path == "audit":
        report = response.json()
        if not (all_passed(report) and report["signature_ok"] is True):
            raise AssertionError(f"the audit of game {game_id} failed: {report}")
    return seconds


def measure_relay(targets: list[Target], games: int, seed: int) -> None:
    """Games of one human and three bots, played on both stores at the same time: each outbox
    row they write, from its commit to its enqueueing by the relay, is a `relay` sample."""
    since = datetime.now(UTC)

    def play(number: int) -> None:
        api = Api(targets[number].url, ACTION_GAME)
        rng = random.Random(f"{seed}/relay")
        for _ in range(games):
            play_bot_game(api, rng, 0.01, lambda: None)
        api.close()

    in_threads(play, [(n,) for n in range(len(targets))])
    for target in targets:
        with psycopg.connect(target.store.url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT extract(epoch FROM enqueued_at - created_at)::float8 FROM outbox"
                " WHERE created_at >= %s AND enqueued_at IS NOT NULL",
                (since,),
            ).fetchall()
        target.samples.extend("relay", [row[0] for row in rows])


@dataclass(frozen=True)
class Figure:
    """A line of the table: a measure's name, how it is summed up, and its samples' name."""

    label: str
    samples: str
    pct: float


FIGURES = (
    Figure("action p50", "action", 50),
    Figure("action p99", "action", 99),
    Figure(f"GET {WAITING} p50", "waiting", 50),
    Figure("finished game's /audit p50 (computed)", "audit", 50),
    Figure("finished game's /audit p50 (kept)", "audit_kept", 50),
    Figure("finished game's /export p50", "export", 50),
    Figure("outbox relay lag p50", "relay", 50),
    Figure("outbox relay lag p99", "relay", 99),
    Figure("make run start-up (median)", "startup", 50),
)
GOAL = 1.2


def figure_name(figure: Figure) -> str:
    return f"{figure.samples}_p{figure.pct:g}_ratio"


def ratios(empty: Samples, history: Samples) -> dict[str, float]:
    """Each figure on both stores (ms) and its ratio history / empty."""
    found: dict[str, float] = {}
    for figure in FIGURES:
        before = empty.figure(figure.samples, figure.pct)
        after = history.figure(figure.samples, figure.pct)
        name = figure_name(figure)
        found[name.replace("_ratio", "_empty_ms")] = round(1000 * before, 2)
        found[name.replace("_ratio", "_history_ms")] = round(1000 * after, 2)
        found[name] = round(after / before, 3) if before > 0 else float("nan")
    return found
