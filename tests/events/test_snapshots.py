"""Snapshots speed up cold loads and are never the truth: one from other code, or one that
cannot be read, is ignored and the events are folded instead."""

from __future__ import annotations

import random
import uuid

import pytest
from psycopg.types.json import Jsonb

from domain.games import get_game_type
from domain.kit.templates import action_from_template
from domain.tables import table as tables
from domain.tables.snapshot import table_from_json, table_to_json
from events.bootstrap import Cardroom, bootstrap
from events.folding import fold_events
from events.operations.settings import Settings
from events.postgres import repository as repositories
from events.postgres import store
from events.postgres.repository import Repository

GAME = get_game_type("trick_and_snipers")


@pytest.fixture()
def handler(database_url, monkeypatch, tmp_path):
    monkeypatch.setattr(repositories, "SNAPSHOT_EVERY", 10)
    settings = Settings(database_url=database_url, audit_key_file=str(tmp_path / "k.pem"))
    built = bootstrap(settings, pool_size=4)
    yield built
    built.close()


def played_game(handler: Cardroom, actions: int) -> uuid.UUID:
    game_id, rng = uuid.uuid4(), random.Random(4)
    seats = (tables.SeatInfo(tables.HUMAN, "p"),) * 4
    handler.commands.create(game_id, GAME, tables.CreateTable(seats, {}))
    for _ in range(actions):
        table, _ = handler.queries.game(game_id)
        seat = GAME.to_act(table.game)[0]
        action = action_from_template(GAME.legal_actions(table.game, seat)[0], rng)
        handler.commands.act(game_id, seat, action)
    return game_id


def stored_snapshot(handler: Cardroom, game_id: uuid.UUID):
    with handler.pool.connection() as conn:
        row = conn.execute(
            "SELECT version, state FROM snapshots WHERE game_id = %s", (game_id,)
        ).fetchone()
    return row["version"], row["state"]


def full_fold(handler: Cardroom, game_id: uuid.UUID):
    with handler.pool.connection() as conn:
        return fold_events(None, store.read_stream(conn, game_id))


def rewrite_snapshot(handler: Cardroom, game_id: uuid.UUID, state: dict) -> None:
    with handler.pool.connection() as conn:
        conn.execute("UPDATE snapshots SET state = %s WHERE game_id = %s", (Jsonb(state), game_id))


def cold_load(handler: Cardroom, game_id: uuid.UUID):
    with handler.pool.connection() as conn:
        return Repository().load(conn, game_id)


def test_a_table_survives_the_trip_through_json():
    handler_table = tables.create(
        GAME, tables.TableCreated(GAME.id, (tables.SeatInfo("open"),) * 3, {"first_leader": 1})
    )
    assert table_from_json(GAME, table_to_json(handler_table)) == handler_table


def test_a_snapshot_is_saved_every_so_many_events_and_a_cold_load_starts_from_it(handler):
    game_id = played_game(handler, actions=12)
    version, state = stored_snapshot(handler, game_id)
    assert version >= 10 and state["code"] == repositories.CODE_VERSION
    table, loaded_version = cold_load(handler, game_id)
    assert table == full_fold(handler, game_id)
    # Prove the load started from the snapshot: a marked snapshot shows in what is loaded.
    state["table"]["seats"][0]["name"] = "from the snapshot"
    rewrite_snapshot(handler, game_id, state)
    assert cold_load(handler, game_id)[0].seats[0].name == "from the snapshot"


def test_a_snapshot_from_other_code_is_ignored(handler):
    game_id = played_game(handler, actions=12)
    _, state = stored_snapshot(handler, game_id)
    state["code"] = "other code"
    state["table"]["seats"][0]["name"] = "from the snapshot"
    rewrite_snapshot(handler, game_id, state)
    assert cold_load(handler, game_id)[0] == full_fold(handler, game_id)


def test_an_unreadable_snapshot_is_ignored(handler):
    game_id = played_game(handler, actions=12)
    _, state = stored_snapshot(handler, game_id)
    state["table"]["game"] = {"not": "a state"}
    rewrite_snapshot(handler, game_id, state)
    assert cold_load(handler, game_id)[0] == full_fold(handler, game_id)
