"""Loading a history into a database of its own (bench/history.py): games played in worker
processes, each written through the Postgres store's own write path (events/postgres: the
stream, the game's events in one append, its tokens, seats, notices, snapshot and outbox),
each chunk of games in one transaction with a note of the chunk, so that a load stopped at
any point goes on where it stopped. The store stamps every row with the time of the load.

The database holds, besides the service's schema, the bench's own bookkeeping:
`bench_history_state` (the parameters, the signing key: a resumed load must use the same) and
`bench_history_chunks` (the chunks loaded).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg import sql

from bench.history_games import GameSpec, PlayedGame, play, spec_for
from events.audit.signing import HeadSigner
from events.automation import BOT_SEED_PURPOSE
from events.postgres import outbox, players, seat_tokens
from events.postgres import store as event_store
from events.postgres.migrate import apply_migrations
from events.postgres.repository import Repository
from events.records import NewEvent

CHUNK = 100  # games per transaction
SEALING_PURPOSE = "cardroom/sealed-replies"  # as events/bootstrap.py derives it

BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS bench_history_state (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS bench_history_chunks (
    chunk integer PRIMARY KEY, games integer NOT NULL, events bigint NOT NULL);
"""


def database_exists(server_url: str, name: str) -> bool:
    with psycopg.connect(server_url, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    return found is not None


def create_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@dataclass(frozen=True)
class Plan:
    """What a history holds: `games` finished games, then `active` tables in play or waiting,
    every one from `seed`; `players` hold seat 0 in turn."""

    seed: int
    games: int
    active: int

    @property
    def player_count(self) -> int:
        return max(50, self.games // 10)

    def players(self) -> list[UUID]:
        rng = random.Random(f"{self.seed}/players")
        return [UUID(int=rng.getrandbits(128), version=4) for _ in range(self.player_count)]

    def spec(self, index: int, players: Sequence[UUID]) -> GameSpec:
        """Game `index`: below `games` a finished game, from there an active table."""
        return spec_for(self.seed, index, players, active=index >= self.games)

    def samples(self, count: int) -> list[int]:
        """Finished games spread over the year: the ones audited and exported."""
        count = min(count, self.games)
        return [i * self.games // count for i in range(count)]

    def chunks(self, indexes: Iterable[int] | None = None) -> list[tuple[int, list[int]]]:
        """(chunk number, game indexes): the finished games, then the active tables, or the
        given indexes alone, CHUNK to a chunk."""
        every = list(range(self.games + self.active)) if indexes is None else list(indexes)
        return [(n, every[i : i + CHUNK]) for n, i in enumerate(range(0, len(every), CHUNK))]


def state(conn: psycopg.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM bench_history_state").fetchall())


def prepare(url: str, plan: Plan) -> tuple[Plan, str]:
    """The schema and the bench's bookkeeping; the plan and signing key (PEM) of a load begun
    before (the caller's plan must match it), or this plan with a new key."""
    apply_migrations(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(BOOKKEEPING)
        kept = state(conn)
        if kept:
            begun = Plan(int(kept["seed"]), int(kept["games"]), int(kept["active"]))
            if begun != plan:
                raise SystemExit(
                    f"the database holds a load of {begun.games} games and {begun.active}"
                    f" active tables (seed {begun.seed}): finish it with those, or --drop it"
                )
            return begun, kept["key"]
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()  # fmt: skip
        values = {"seed": plan.seed, "games": plan.games, "active": plan.active, "key": pem}
        with conn.transaction():
            for name, value in values.items():
                conn.execute("INSERT INTO bench_history_state VALUES (%s, %s)", (name, str(value)))
            _load_players(conn, plan)
        return plan, pem


def signer_from(pem: str) -> HeadSigner:
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    return HeadSigner(key)


def _load_players(conn: psycopg.Connection[Any], plan: Plan) -> None:
    """The players of the history: a name and a key nobody holds."""
    rng = random.Random(f"{plan.seed}/keys")
    for number, player in enumerate(plan.players()):
        players.create(conn, player, f"player {number}", f"{rng.getrandbits(128):032x}")


def loaded_chunks(conn: psycopg.Connection) -> set[int]:
    return {row[0] for row in conn.execute("SELECT chunk FROM bench_history_chunks")}


def write_games(conn: psycopg.Connection[Any], games: list[PlayedGame], signer: HeadSigner) -> int:
    """The games as the Postgres unit of work writes them, each game's events in one append;
    the number of events. In the order of their players: the notices lock each player's row,
    so two chunks written at once always take their players' locks in the same order."""
    repository = Repository()
    for game in sorted(games, key=lambda g: g.spec.player):
        game_id, state = game.spec.game_id, game.store.state
        head = event_store.create_stream(
            conn, game_id, game.spec.game_type, creator=game.spec.creator
        )
        seat_tokens.save(conn, game_id, game.by_seat(state.tokens))
        seat_tokens.save_invites(conn, game_id, game.by_seat(state.invites))
        seated = {seat: UUID(p) for seat, p in game.by_seat(state.player_seats).items()}
        players.seat(conn, game_id, seated)
        if not game.events or game.table is None:
            continue
        new = [NewEvent(e.type, e.data, e.seat, e.visible_to) for e in game.events]
        appending = event_store.prepare_append(
            game_id, head, new, notify=False, sign=signer.sign, to_act=game.to_act,
            acted=0 if 0 in seated else None,
        )  # fmt: skip
        event_store.appended(appending, event_store.execute(conn, appending.statement))
        event_store.set_stream_status(conn, game_id, game.status)
        repository.snapshot_if_due(conn, game_id, 0, len(new), game.table)
        for version, told in itertools.groupby(game.notices, key=lambda n: n[0]):
            players.add_notices(conn, game_id, version, [n[1:] for n in told])
        if game.status != "finished":  # a finished game's outbox was purged long ago
            for version, work, urgent, done in game.work:
                outbox.add(conn, game_id, version, work, urgent)
                if done:
                    outbox.mark_done(conn, game_id, version, work)
    return sum(len(game.events) for game in games)


@dataclass(frozen=True)
class ChunkJob:
    url: str
    plan: Plan
    key_pem: str
    chunk: int
    indexes: list[int]


_connections: dict[str, psycopg.Connection] = {}  # one per worker process and database


def load_chunk(job: ChunkJob) -> tuple[int, int]:
    """Plays a chunk's games and writes them with the chunk's note, in one transaction (a
    worker process's task); (games, events)."""
    signer = signer_from(job.key_pem)
    players = job.plan.players()
    games = [
        play(
            job.plan.spec(index, players),
            signer.derived_secret(BOT_SEED_PURPOSE),
            signer.derived_secret(SEALING_PURPOSE),
        )
        for index in job.indexes
    ]
    conn = _connection(job.url)
    with conn.transaction():
        events = write_games(conn, games, signer)
        conn.execute(
            "INSERT INTO bench_history_chunks VALUES (%s, %s, %s)", (job.chunk, len(games), events)
        )
    return len(games), events


def close_connections() -> None:
    while _connections:
        _connections.popitem()[1].close()


def _connection(url: str) -> psycopg.Connection:
    conn = _connections.get(url)
    if conn is None or conn.closed:
        conn = _connections[url] = psycopg.connect(url, autocommit=True)
    return conn


def finish(url: str) -> None:
    """Vacuums and analyzes every table, as a database in service for a year would be."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO bench_history_state VALUES ('finished', 'true')"
                     " ON CONFLICT DO NOTHING")  # fmt: skip
        conn.execute("VACUUM (ANALYZE)")


def is_finished(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        return state(conn).get("finished") == "true"


@contextmanager
def connected(url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(url, autocommit=True) as conn:
        yield conn
