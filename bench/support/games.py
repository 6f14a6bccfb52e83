"""Writing into a started service's store: long games self-played in the pure domain, signed
with its key as the service signs them (for the benchmarks that read them back), and rows in
bulk (COPY) for the benchmarks that need a big store."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from bench.support.service import Service
from domain.games import GAME_TYPES
from domain.tables.selfplay import play_out
from events.audit.signing import load_or_create_signer
from events.operations.settings import Settings
from events.postgres import store
from events.records import new_events

RATINGS = "ratings (player_id, game_type, mu, sigma, games, display, provisional)"


def long_st_patrick_game(min_events: int, tries: int, seed: int) -> tuple[Any, list[Any]]:
    """A St Patrick game of basic bots (3 and 4 seats in turn) with at least `min_events`
    events, or the longest of `tries`: its table and its events."""
    best: tuple[Any, list[Any]] | None = None
    for i in range(tries):
        players = 3 + i % 2
        table, events = play_out(GAME_TYPES["st_patrick"], ["basic"] * players,
                                 random.Random(f"{seed}:{i}"))  # fmt: skip
        if best is None or len(events) > len(best[1]):
            best = (table, list(events))
        if len(best[1]) >= min_events:
            break
    assert best is not None
    return best


def store_game(service: Service, events: list[Any], status: str) -> str:
    """The game's id, once its events are in the store, signed, with the stream's status."""
    assert service.database_url and service.data_dir
    signer = load_or_create_signer(Settings(data_dir=service.data_dir).audit_key_path)
    game_id = uuid.uuid4()
    with psycopg.connect(service.database_url, row_factory=dict_row) as conn, conn.transaction():
        store.create_stream(conn, game_id, "st_patrick")
        store.append(conn, game_id, 0, new_events(events), sign=signer.sign)
        store.set_stream_status(conn, game_id, status)
    return str(game_id)


def copy_rows(conn: psycopg.Connection[Any], table: str, rows: Iterable[Sequence[Any]]) -> None:
    """`rows` into `table` (its name and columns, e.g. RATINGS) with one COPY."""
    with conn.cursor() as cur, cur.copy(f"COPY {table} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
