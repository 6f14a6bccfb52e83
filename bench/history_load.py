"""Loading a history into a database of its own (bench/history.py): games played in worker
processes, each chunk of games COPYed in one transaction with a note of the chunk, so that a
load stopped at any point goes on where it stopped.

The database holds, besides the service's schema, the bench's own bookkeeping:
`bench_history_state` (the parameters, the signing key: a resumed load must use the same),
`bench_history_chunks` (the chunks loaded) and, until the load ends, `bench_history_notices`
(notices waiting to be numbered in each player's order).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from uuid import UUID

import psycopg
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg import sql

from bench import history_rows as rows
from bench.history_games import GameSpec, PlayedGame, play, spec_for
from events.audit.signing import HeadSigner
from events.automation import BOT_SEED_PURPOSE
from events.postgres.migrate import apply_migrations

YEAR = timedelta(days=365)
ACTIVE_SPAN = timedelta(hours=1)  # the active tables were created within the last hour
CHUNK = 100  # games per transaction
SEALING_PURPOSE = "cardroom/sealed-replies"  # as events/bootstrap.py derives it

BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS bench_history_state (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS bench_history_chunks (
    chunk integer PRIMARY KEY, games integer NOT NULL, events bigint NOT NULL);
CREATE UNLOGGED TABLE IF NOT EXISTS bench_history_notices (
    player_id uuid NOT NULL, created_at timestamptz NOT NULL, game_id uuid NOT NULL,
    version integer, seq integer NOT NULL, kind text NOT NULL, seat smallint);
"""


def with_database(url: str, name: str) -> str:
    """The URL of database `name` on the server of `url`."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


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
    """What a history holds: `games` finished games over the year before `end`, then `active`
    tables created in its last hour, every one from `seed`; `players` hold seat 0 in turn."""

    seed: int
    games: int
    active: int
    end: datetime

    @property
    def player_count(self) -> int:
        return max(50, self.games // 10)

    def players(self) -> list[UUID]:
        rng = random.Random(f"{self.seed}/players")
        return [UUID(int=rng.getrandbits(128), version=4) for _ in range(self.player_count)]

    def spec(self, index: int, players: Sequence[UUID]) -> GameSpec:
        """Game `index`: below `games` a finished game, from there an active table."""
        if index < self.games:
            start = self.end - YEAR + YEAR * index / self.games
            return spec_for(self.seed, index, players, start)
        start = self.end - ACTIVE_SPAN + ACTIVE_SPAN * (index - self.games) / self.active
        return spec_for(self.seed, index, players, start, active=True)

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
    before (the caller's plan must match it but for its end), or this plan with a new key."""
    apply_migrations(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(BOOKKEEPING)
        kept = state(conn)
        if kept:
            begun = Plan(int(kept["seed"]), int(kept["games"]), int(kept["active"]),
                         datetime.fromisoformat(kept["end"]))  # fmt: skip
            if (begun.seed, begun.games, begun.active) != (plan.seed, plan.games, plan.active):
                raise SystemExit(
                    f"the database holds a load of {begun.games} games and {begun.active}"
                    f" active tables (seed {begun.seed}): finish it with those, or --drop it"
                )
            return begun, kept["key"]
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()  # fmt: skip
        values = {"seed": plan.seed, "games": plan.games, "active": plan.active,
                  "end": plan.end.isoformat(), "key": pem}  # fmt: skip
        with conn.transaction():
            for name, value in values.items():
                conn.execute("INSERT INTO bench_history_state VALUES (%s, %s)", (name, str(value)))
            _load_players(conn, plan)
        return plan, pem


def signer_from(pem: str) -> HeadSigner:
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    return HeadSigner(key)


def _load_players(conn: psycopg.Connection, plan: Plan) -> None:
    rng = random.Random(f"{plan.seed}/keys")
    joined = plan.end - YEAR - timedelta(days=1)
    table_rows = (
        rows.player_row(player, number, f"{rng.getrandbits(128):032x}", joined)
        for number, player in enumerate(plan.players())
    )
    copy_rows(conn, "players", rows.PLAYER_COLUMNS, table_rows)


def copy_rows(
    conn: psycopg.Connection, table: str, columns: Sequence[str], table_rows: Iterable[rows.Row]
) -> int:
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    count = 0
    with conn.cursor().copy(statement) as copy:
        for row in table_rows:
            copy.write_row(row)
            count += 1
    return count


def loaded_chunks(conn: psycopg.Connection) -> set[int]:
    return {row[0] for row in conn.execute("SELECT chunk FROM bench_history_chunks")}


def copy_games(conn: psycopg.Connection, games: list[PlayedGame], signer: HeadSigner) -> int:
    """Every row of the games, table by table (streams first: events refer to them); the
    number of events."""
    copy_rows(
        conn, "streams", rows.STREAM_COLUMNS, (rows.stream_row(g, signer.sign) for g in games)
    )
    # In the order they were recorded, as the service would have appended them: the events
    # of games played at the same time share pages, as they would.
    ordered = sorted(_each(rows.event_rows, games), key=lambda row: (row[6], row[0], row[1]))
    events = copy_rows(conn, "events", rows.EVENT_COLUMNS, ordered)
    tables: list[tuple[str, Sequence[str], Any]] = [
        ("snapshots", rows.SNAPSHOT_COLUMNS, rows.snapshot_rows),
        ("seat_tokens", rows.TOKEN_COLUMNS, rows.token_rows),
        ("seat_invites", rows.INVITE_COLUMNS, rows.invite_rows),
        ("player_seats", rows.SEAT_COLUMNS, rows.seat_rows),
        ("bench_history_notices", rows.NOTICE_COLUMNS, rows.notice_rows),
        ("outbox", rows.OUTBOX_COLUMNS, rows.outbox_rows),
    ]
    for table, columns, rows_of in tables:
        copy_rows(conn, table, columns, _each(rows_of, games))
    return events


def _each(rows_of: Any, games: list[PlayedGame]) -> Iterator[rows.Row]:
    for game in games:
        yield from rows_of(game)


@dataclass(frozen=True)
class ChunkJob:
    url: str
    plan: Plan
    key_pem: str
    chunk: int
    indexes: list[int]


_connections: dict[str, psycopg.Connection] = {}  # one per worker process and database


def load_chunk(job: ChunkJob) -> tuple[int, int]:
    """Plays a chunk's games and COPYs them with the chunk's note, in one transaction (a
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
        events = copy_games(conn, games, signer)
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


FINISH = """
INSERT INTO notices (player_id, number, kind, game_id, version, seat, created_at)
SELECT player_id,
       row_number() OVER (PARTITION BY player_id ORDER BY created_at, game_id, seq),
       kind, game_id, version, seat, created_at
FROM bench_history_notices;
UPDATE players p SET notices = n.last
FROM (SELECT player_id, max(number) AS last FROM notices GROUP BY player_id) n
WHERE p.id = n.player_id;
DROP TABLE bench_history_notices;
INSERT INTO bench_history_state VALUES ('finished', 'true');
"""


def finish(url: str) -> None:
    """Numbers the notices in each player's order, then vacuums and analyzes every table, as
    a database in service for a year would be. Once only."""
    with psycopg.connect(url, autocommit=True) as conn:
        if state(conn).get("finished") != "true":
            with conn.transaction():
                conn.execute(FINISH)
        conn.execute("VACUUM (ANALYZE)")


def is_finished(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        return state(conn).get("finished") == "true"


@contextmanager
def connected(url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(url, autocommit=True) as conn:
        yield conn


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
