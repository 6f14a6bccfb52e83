"""A year of history: does the store stay fast once it holds 100,000 finished games?

`games` finished games and `active` tables go into `database`, the same tables with the audited
games alone into `<database>_empty`: each game played by the service's command code and written
through the Postgres store's write path (a copy would fail its audit: a seeded table's deals
derive from its game id), a chunk of games a transaction, so that a stopped load resumes. Then
POST action, GET /games?status=waiting, a finished game's /audit (computed, then kept) and
/export, the outbox relay's lag and `make run`'s start-up are timed on a service on each store,
call by call on one then the other, each first in turn (one store after the other, two equal
stores differed by up to 20 %). The databases are dropped unless `keep`."""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import os
import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg import sql
from requests import Response

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings, Skip
from bench.support.players import Api, TablePlayer, Tally, expect, play_bot_game
from bench.support.service import started_service
from bench.support.sides import alternate
from bench.support.stats import Progress, in_threads, ms, percentile
from domain.games import GAME_TYPES
from domain.tables import table as tables
from domain.tables.view import view_table
from events.audit.signing import HeadSigner
from events.automation import BOT_SEED_PURPOSE, Automation
from events.commands import Commands
from events.committing import Committer
from events.memory import MemoryStore
from events.postgres import outbox, players, seat_tokens
from events.postgres import store as event_store
from events.postgres.audit_cache import all_passed
from events.postgres.migrate import apply_migrations
from events.postgres.repository import Repository
from events.records import NewEvent
from events.sealing import Sealer
from events.seeds import random_hex
from testing.databases import with_database

CHUNK = 100  # games per transaction
MAX_DECISIONS = 20_000
SEALING_PURPOSE = "cardroom/sealed-replies"  # as events/bootstrap.py derives it
# (game, seats, bot level, weight): about 155 events a game on average.
MIX: tuple[tuple[str, int, str, int], ...] = (
    ("saint_poker", 4, "basic", 30),
    ("st_patrick", 3, "random", 25),
    ("st_patrick", 4, "basic", 10),
    ("ouroboros_trick", 4, "basic", 20),
    ("trick_and_snipers", 4, "basic", 15),
)
BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS bench_history_state (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS bench_history_chunks (
    chunk integer PRIMARY KEY, games integer NOT NULL, events bigint NOT NULL);
"""


@dataclass(frozen=True)
class GameSpec:
    """Game `index` of a history: seat 0 is `player`'s, played as a bot of `level` would."""

    index: int
    game_id: UUID
    game_type: str
    seats: int
    level: str
    player: UUID
    creator: str
    stop_after: int | None = None  # None: to the end; else the player's first turn after so
    open_seat: bool = False  # seat 1 open: the table waits for someone to join (not dealt)


@dataclass(frozen=True)
class Plan:
    """`games` finished games, then `active` tables in play or waiting, all from `seed`."""

    seed: int
    games: int
    active: int

    def players(self) -> list[UUID]:
        rng = random.Random(f"{self.seed}/players")
        count = max(50, self.games // 10)
        return [UUID(int=rng.getrandbits(128), version=4) for _ in range(count)]

    def spec(self, index: int, players: Sequence[UUID]) -> GameSpec:
        """The same every time: below `games` a finished game, from there an active table."""
        rng = random.Random(f"{self.seed}/{index}")
        active = index >= self.games
        game_id = UUID(int=rng.getrandbits(128), version=4)
        game_type, seats, level, _ = rng.choices(MIX, weights=[m[3] for m in MIX])[0]
        player = players[rng.randrange(len(players))]
        creator = "address-" + hashlib.sha256(player.bytes).hexdigest()[:16]
        stop_after = rng.randrange(0, 16) if active else None
        open_seat = active and rng.random() < 0.1
        return GameSpec(
            index, game_id, game_type, seats, level, player, creator, stop_after, open_seat
        )

    def samples(self, count: int) -> list[int]:
        """Finished games spread over the year: the ones audited and exported."""
        count = min(count, self.games)
        return [i * self.games // count for i in range(count)]

    def chunks(self, indexes: Iterable[int] | None = None) -> list[tuple[int, list[int]]]:
        """(chunk number, game indexes) of every game, or of the given indexes alone."""
        every = list(range(self.games + self.active)) if indexes is None else list(indexes)
        return [(n, every[i : i + CHUNK]) for n, i in enumerate(range(0, len(every), CHUNK))]


def by_seat(held: dict[tuple[UUID, int], str]) -> dict[int, str]:
    """One game's (game, seat)-keyed values of the memory store (tokens, invites...) by seat."""
    return {seat: value for (_, seat), value in sorted(held.items())}


def play(spec: GameSpec, bot_secret: bytes, sealing_secret: bytes) -> MemoryStore:
    """The unit of work's store of `spec` played to the end, or to the player's turn after
    `stop_after` decisions, or (an open seat) only created: what the service's database holds."""
    rng = random.Random(f"play/{spec.game_id}")
    store = MemoryStore()
    committer = Committer(deal_rng=rng)
    commands = Commands(
        store.unit_of_work, Sealer(sealing_secret), committer, lambda: random_hex(rng, 64)
    )
    automation = Automation(store.unit_of_work, committer, bot_secret=bot_secret)
    game_type = GAME_TYPES[spec.game_type]
    seats = [tables.SeatInfo(tables.HUMAN, f"player {spec.index}", player=str(spec.player))]
    seats += [tables.SeatInfo(tables.BOT, level=spec.level)] * (spec.seats - 1)
    if spec.open_seat:
        seats[1] = tables.SeatInfo(tables.OPEN)
    commands.create(
        spec.game_id, game_type, tables.CreateTable(tuple(seats), {}), creator=spec.creator
    )
    if spec.open_seat:
        return store
    for decisions in range(MAX_DECISIONS):
        table = store.state.tables[spec.game_id]
        if table.status == "finished":
            return store
        pending = store.pending_work(spec.game_id)
        if pending:
            for version, work in pending:
                automation.run_work(spec.game_id, version, work)
        elif 0 in tables.seats_to_act(table):
            if spec.stop_after is not None and decisions >= spec.stop_after:
                return store
            action = game_type.bots[spec.level](view_table(table, 0), rng)
            commands.act(spec.game_id, 0, action)
        else:
            raise RuntimeError(f"{spec.game_type} game {spec.index} waits for nothing")
    raise RuntimeError(f"{spec.game_type} game {spec.index} not over in {MAX_DECISIONS} decisions")


def create_database(server_url: str, name: str) -> str:
    """The URL of database `name`, created unless it exists (a load resumes in it)."""
    with psycopg.connect(server_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return with_database(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def state(conn: psycopg.Connection[Any]) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM bench_history_state").fetchall())


def prepare(conn: psycopg.Connection[Any], plan: Plan) -> str:
    """The bookkeeping and the players; the signing key (PEM) of the load of this plan begun
    before, or a new one."""
    conn.execute(BOOKKEEPING)
    kept = state(conn)
    if kept:
        begun = Plan(int(kept["seed"]), int(kept["games"]), int(kept["active"]))
        if begun != plan:
            raise SystemExit(
                f"the database holds a load of {begun.games} games and {begun.active}"
                f" active tables (seed {begun.seed}): finish it with those, or --drop it"
            )
        return kept["key"]
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()  # fmt: skip
    values = {"seed": plan.seed, "games": plan.games, "active": plan.active, "key": pem}
    keys = random.Random(f"{plan.seed}/keys")  # keys nobody holds
    with conn.transaction():
        for name, value in values.items():
            conn.execute("INSERT INTO bench_history_state VALUES (%s, %s)", (name, str(value)))
        for number, player in enumerate(plan.players()):
            players.create(conn, player, f"player {number}", f"{keys.getrandbits(128):032x}")
    return pem


def signer_from(pem: str) -> HeadSigner:
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    return HeadSigner(key)


def write_games(
    conn: psycopg.Connection[Any], games: list[tuple[GameSpec, MemoryStore]], signer: HeadSigner
) -> int:
    """The played games as the Postgres unit of work writes them, each game's events in one
    append; the number of events. In their players' order: the notices lock each player's row,
    so two chunks written at once take their players' locks in the same order."""
    repository = Repository()
    count = 0
    for spec, store in sorted(games, key=lambda game: game[0].player):
        game_id, state = spec.game_id, store.state
        events, table = state.events[game_id], state.tables[game_id]
        count += len(events)
        head = event_store.create_stream(conn, game_id, spec.game_type, creator=spec.creator)
        seat_tokens.save(conn, game_id, by_seat(state.tokens))
        seat_tokens.save_invites(conn, game_id, by_seat(state.invites))
        seated = {seat: UUID(p) for seat, p in by_seat(state.player_seats).items()}
        players.seat(conn, game_id, seated)
        new = [NewEvent(e.type, e.data, e.seat, e.visible_to) for e in events]
        appending = event_store.prepare_append(
            game_id, head, new, notify=False, sign=signer.sign, to_act=tables.seats_to_act(table),
            acted=0 if 0 in seated else None,
        )  # fmt: skip
        event_store.appended(appending, event_store.execute(conn, appending.statement))
        event_store.set_stream_status(conn, game_id, table.status)
        repository.snapshot_if_due(conn, game_id, 0, len(new), table)
        for version, told in itertools.groupby(state.notices, key=lambda n: n[3]):
            notices = [(UUID(player), kind, seat) for player, kind, _, _, seat in told]
            players.add_notices(conn, game_id, version, notices)
        if table.status != "finished":  # a finished game's outbox was purged long ago
            for (_, version, work), done in state.work.items():
                outbox.add(conn, game_id, version, work, state.urgent[game_id, version, work])
                if done:
                    outbox.mark_done(conn, game_id, version, work)
    return count


def load_chunk(url: str, plan: Plan, key_pem: str, chunk: tuple[int, list[int]]) -> tuple[int, int]:
    """A worker process's task: the chunk's games played, then written with the chunk's note
    in one transaction; (games, events)."""
    signer = signer_from(key_pem)
    secrets = signer.derived_secret(BOT_SEED_PURPOSE), signer.derived_secret(SEALING_PURPOSE)
    players = plan.players()
    specs = [plan.spec(index, players) for index in chunk[1]]
    games = [(spec, play(spec, *secrets)) for spec in specs]
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        events = write_games(conn, games, signer)
        conn.execute(
            "INSERT INTO bench_history_chunks VALUES (%s, %s, %s)", (chunk[0], len(games), events)
        )
    return len(games), events


def load(
    server_url: str, name: str, plan: Plan, workers: int, indexes: list[int] | None = None
) -> tuple[str, str]:
    """Database `name` holding the plan's games (or those `indexes` alone), loaded now or
    before: its URL and its signing key (PEM)."""
    url = create_database(server_url, name)
    apply_migrations(url)
    with psycopg.connect(url, autocommit=True) as conn:
        key_pem = prepare(conn, plan)
        if state(conn).get("finished") == "true":
            print(f"{name}: loaded before")
            return url, key_pem
        done = {row[0] for row in conn.execute("SELECT chunk FROM bench_history_chunks")}
    chunks = plan.chunks(indexes)
    todo = [(n, chunk) for n, chunk in chunks if n not in done]
    total = sum(len(chunk) for _, chunk in chunks)
    counts = {"games": total - sum(len(chunk) for _, chunk in todo), "events": 0}
    first = counts["games"]

    def render(elapsed: float) -> str:
        rate = (counts["games"] - first) / elapsed if elapsed else 0.0
        left = (total - counts["games"]) / rate if rate else float("inf")
        return (f"{name}: {counts['games']:,}/{total:,} games, {counts['events']:,} events"
                f" this run, {rate:.1f} games/s, about {left / 60:.0f} min left")  # fmt: skip

    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool, Progress(render):
        for games, events in pool.imap_unordered(partial(load_chunk, url, plan, key_pem), todo):
            counts["games"] += games
            counts["events"] += events
    print(f"{name}: {len(todo)} chunks loaded in {time.perf_counter() - started:.0f} s;"
          " vacuum and analyze...", flush=True)  # fmt: skip
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO bench_history_state VALUES ('finished', 'true')"
                     " ON CONFLICT DO NOTHING")  # fmt: skip
        conn.execute("VACUUM (ANALYZE)")  # as a database in service for a year would be
    return url, key_pem


GOAL = 1.2
WAITING = "/games?status=waiting"
# (label, samples, percentile): a goal on each one's ratio history / empty.
FIGURES = (
    ("action p50", "action", 50),
    ("action p99", "action", 99),
    (f"GET {WAITING} p50", "waiting", 50),
    ("finished game's /audit p50 (computed)", "audit", 50),
    ("finished game's /audit p50 (kept)", "audit_kept", 50),
    ("finished game's /export p50", "export", 50),
    ("outbox relay lag p50", "relay", 50),
    ("outbox relay lag p99", "relay", 99),
    ("make run start-up (median)", "startup", 50),
)
# The first calls of a process pay for its imports and pools: a short round, thrown away.
WARM_UP = {"actions": 40, "clients": 1, "list_calls": 5, "relay_games": 1}
# Each audited game's report computed, then kept, and its export: (measure, path's end).
AUDIT_CALLS = [("audit", "audit")] + [("audit_kept", "audit"), ("export", "export")] * 3
INDEXES = """
SELECT indexrelname, relname, pg_size_pretty(pg_relation_size(indexrelid))
FROM pg_stat_user_indexes WHERE schemaname = 'public' AND NOT relname LIKE 'bench\\_%'
ORDER BY pg_relation_size(indexrelid) DESC, indexrelname
"""
EVENTS = """
SELECT (SELECT count(*) FROM events), pg_relation_size('events'),
       pg_table_size('events') - pg_relation_size('events'), pg_indexes_size('events'),
       pg_total_relation_size('events'), pg_database_size(current_database()),
       pg_size_pretty(pg_database_size(current_database()))
"""

Samples = defaultdict[str, list[float]]  # seconds, by measure


@dataclass
class Side:
    """A store measured: its database, its signing key (PEM), its samples, its service."""

    database: str
    key_pem: str
    samples: Samples = field(default_factory=lambda: defaultdict(list))
    url: str = ""  # the service's, once started


def run(context: Context, s: Settings) -> Figures:
    server = context.database_url
    if not server:
        raise Skip("needs a Postgres server: the runner's service, or DATABASE_URL")
    if s["database"].startswith("cardroom_test"):
        raise Skip("`database` must not be one of the tests' databases")
    names = (s["database"], f"{s['database']}_empty")
    plan = Plan(s["seed"], s["games"], s["active"])
    history = Side(*load(server, names[0], plan, s["workers"]))
    indexes = [*plan.samples(s["samples"]), *range(plan.games, plan.games + plan.active)]
    empty = Side(*load(server, names[1], plan, s["workers"], indexes))
    figures = print_sizes(history.database)
    if s["load_only"]:
        return figures
    try:
        return figures | compare(s, plan, {"empty": empty, "history": history})
    finally:
        if not s["keep"]:
            for name in names:
                drop_database(server, name)


def print_sizes(url: str) -> Figures:
    """Prints the bytes per event (the events table with its TOAST and indexes, the whole
    database) and every index's size, largest first; the bytes per event as figures."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(EVENTS).fetchone()
        indexes = conn.execute(INDEXES).fetchall()
    assert row is not None
    events, heap, toast, indexed, total, database, database_size = row
    per = max(events, 1)
    print(f"events: {events:,}; bytes per event: {total / per:.0f} (heap {heap / per:.0f},"
          f" TOAST and maps {toast / per:.0f}, indexes {indexed / per:.0f});"
          f" whole database {database / per:.0f} ({database_size})")  # fmt: skip
    print(f"{'index':<40} {'table':<20} {'size':>10}")
    for index, table, size in indexes:
        print(f"{index:<40} {table:<20} {size:>10}")
    return {"events": events, "bytes_per_event": round(total / per),
            "database_bytes_per_event": round(database / per)}  # fmt: skip


def compare(s: Settings, plan: Plan, sides: dict[str, Side]) -> Figures:
    players = plan.players()
    audited = [plan.spec(i, players).game_id for i in plan.samples(s["samples"])]

    def start_up(name: str, side: Side, number: int) -> None:
        print(f"start-up {number}/{s['starts']}: {name}", flush=True)
        with service(name, side):
            pass

    alternate(sides, s["starts"], start_up)
    with service("empty", sides["empty"]), service("history", sides["history"]):
        print("warming up", flush=True)
        thrown = {name: replace(side, samples=defaultdict(list)) for name, side in sides.items()}
        measure_round(thrown, audited[:2], WARM_UP, s["seed"])
        for number in range(s["rounds"]):
            print(f"round {number + 1}/{s['rounds']}", flush=True)
            shown = measure_round(sides, audited, s, s["seed"] * 1000 + number)
            if 0 in shown.values() or len(set(shown.values())) > 1:
                raise SystemExit(f"GET {WAITING} showed pages of {shown} tables")
    counts = {name: len(seconds) for name, seconds in sides["history"].samples.items()}
    return ratios(sides["empty"].samples, sides["history"].samples) | {"samples_per_store": counts}


@contextmanager
def service(name: str, side: Side) -> Iterator[None]:
    """The service on the side's store, beside the other's (a queue of its own); from its
    launch to its first ready answer (the migrations run in between) is a `startup` sample."""
    with tempfile.TemporaryDirectory(prefix="cardroom-history-") as keys:
        key_file = Path(keys) / "audit.pem"
        key_file.write_text(side.key_pem)
        key_file.chmod(0o600)
        queue = f"bench-history-{os.getpid()}-{name}"
        settings = {
            "DATABASE_URL": side.database,
            "AUDIT_KEY_FILE": str(key_file),
            "RQ_QUEUE": queue,
        }
        started = time.perf_counter()
        with started_service(settings) as running:
            side.samples["startup"].append(time.perf_counter() - started)
            side.url = running.url
            yield


@contextmanager
def apis(sides: dict[str, Side]) -> Iterator[dict[str, Api]]:
    """A session on each side's service (one per thread)."""
    opened = {name: Api(side.url) for name, side in sides.items()}
    try:
        yield opened
    finally:
        for api in opened.values():
            api.close()


def measure_round(
    sides: dict[str, Side], audited: list[UUID], s: Settings, seed: int
) -> dict[str, int]:
    """Every measure once; each store's page length of GET /games?status=waiting."""
    measure_actions(sides, s["actions"], s["clients"], seed)
    pages = measure_gets(sides, [("waiting", WAITING)] * s["list_calls"])
    for side in sides.values():  # each audit computed afresh first, not read from the last round
        with psycopg.connect(side.database, autocommit=True) as conn:
            conn.execute("DELETE FROM audit_reports WHERE game_id = ANY(%s)", (audited,))
    audits = [
        (measure, f"/games/{game_id}/{path}")
        for game_id in audited
        for measure, path in AUDIT_CALLS
    ]
    measure_gets(sides, audits)
    measure_relay(sides, s["relay_games"], seed)
    return {name: len(answers[-1].json()["games"]) for name, answers in pages.items()}


def measure_actions(sides: dict[str, Side], actions: int, clients: int, seed: int) -> None:
    """`clients` threads, each playing a four-human game on each store (a new one when one
    ends), acting on one then the other, the clients first on different stores: each POST
    action's latency is an `action` sample."""
    tallies = {name: [Tally() for _ in range(clients)] for name in sides}

    def client(number: int) -> None:
        def act(name: str, player: TablePlayer, _: int) -> None:
            player.act(tallies[name][number])

        with apis(sides) as api:
            order = list(api.items())[:: -1 if number % 2 else 1]
            rng = f"{seed}/{number}"
            players = {n: TablePlayer(a, random.Random(rng), "first") for n, a in order}
            alternate(players, actions // clients, act)

    in_threads(client, [(n,) for n in range(clients)])
    for name, side in sides.items():
        for tally in tallies[name]:
            side.samples["action"].extend(tally.posts)


def measure_gets(sides: dict[str, Side], calls: list[tuple[str, str]]) -> dict[str, list[Response]]:
    """Each (measure, path) GET on both stores in turn, its seconds a sample of the measure; an
    audit must pass every check (the history is valid). Each store's answers."""
    with apis(sides) as api:

        def call(name: str, side: Side, number: int) -> Response:
            measure, path = calls[number - 1]
            response, seconds = api[name].call("GET", path)
            expect(response, 200)
            if path.endswith("/audit"):
                report = response.json()
                if not (all_passed(report) and report["signature_ok"] is True):
                    raise AssertionError(f"the audit at {path} failed: {report}")
            side.samples[measure].append(seconds)
            return response

        return alternate(sides, len(calls), call)


def measure_relay(sides: dict[str, Side], games: int, seed: int) -> None:
    """Games of one human and three bots, on both stores at once: each outbox row's time from
    its commit to its enqueueing by the relay is a `relay` sample."""
    since = datetime.now(UTC)
    with apis(sides) as api:

        def play(name: str) -> None:
            rng = random.Random(f"{seed}/relay")
            for _ in range(games):
                play_bot_game(api[name], rng, 0.01, lambda: None)

        in_threads(play, [(name,) for name in sides])
    for side in sides.values():
        with psycopg.connect(side.database, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT extract(epoch FROM enqueued_at - created_at)::float8 FROM outbox"
                " WHERE created_at >= %s AND enqueued_at IS NOT NULL",
                (since,),
            ).fetchall()
        side.samples["relay"].extend(row[0] for row in rows)


def ratios(empty: Samples, history: Samples) -> Figures:
    """Each figure on both stores (ms) and its ratio history / empty."""
    found: Figures = {}
    for _, samples, pct in FIGURES:
        name = f"{samples}_p{pct:g}"
        before = percentile(empty.get(samples, []), pct)
        after = percentile(history.get(samples, []), pct)
        found[f"{name}_empty_ms"] = round(ms(before), 2)
        found[f"{name}_history_ms"] = round(ms(after), 2)
        found[f"{name}_ratio"] = round(after / before, 3) if before > 0 else math.nan
    return found


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
        Goal(f"{samples}_p{pct:g}_ratio", "<=", GOAL, "x", f"{label}: history / empty <= {GOAL}")
        for label, samples, pct in FIGURES
    ],
)  # fmt: skip
