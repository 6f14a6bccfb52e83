"""The unit of work's transaction on real Postgres: it begins with the first statement (the
game's lock carries its BEGIN, in one message), and however the unit ends, its connection
goes back to the pool with no transaction open, and nothing of a failed unit stays."""

from __future__ import annotations

import random
import uuid
from functools import partial

import psycopg
import pytest
from psycopg.pq import TransactionStatus

from domain.games import get_game_type
from domain.kit.templates import action_from_template
from domain.tables import table as tables
from domain.tables.actions import command_from_action
from events.bootstrap import Cardroom, bootstrap
from events.commands import ActionRequest
from events.errors import GameExists, GameNotFound, Unauthorized
from events.operations.settings import Settings
from events.pending_append import AppendNotSaved
from events.postgres.repository import Repository
from events.postgres.unit_of_work import PostgresUnitOfWork
from events.records import StreamHead

GAME = get_game_type("trick_and_snipers")


@pytest.fixture()
def cardroom(database_url, tmp_path):
    """A service with one pooled connection: every unit gets the one the last unit returned."""
    built = bootstrap(
        Settings(database_url=database_url, audit_key_file=str(tmp_path / "k.pem")), pool_size=1
    )
    yield built
    built.close()


def four_humans(cardroom: Cardroom) -> tuple[uuid.UUID, dict[int, str]]:
    game_id = uuid.uuid4()
    command = tables.CreateTable((tables.SeatInfo(tables.HUMAN),) * 4, {})
    return game_id, cardroom.commands.create(game_id, GAME, command).secrets.tokens


def pooled_transaction_status(cardroom: Cardroom) -> TransactionStatus:
    conn = cardroom.pool.getconn()
    try:
        return conn.info.transaction_status
    finally:
        cardroom.pool.putconn(conn)


def units(cardroom: Cardroom):
    return partial(PostgresUnitOfWork, cardroom.pool, Repository(), cardroom.signer)


def test_a_lock_that_finds_no_game_leaves_no_transaction_open(cardroom):
    # Given no such game, when an action asks for its lock
    with pytest.raises(GameNotFound):
        cardroom.commands.act_as(uuid.uuid4(), "some-token", ActionRequest({"type": "pass_relics"}))
    # Then the connection is back in the pool, idle, and serves the next unit
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE
    game_id, _ = four_humans(cardroom)
    assert cardroom.queries.game(game_id)[1] >= 1


def test_a_table_created_under_a_taken_id_is_refused_and_the_first_keeps_its_seats(cardroom):
    # Given a game of four humans
    game_id, tokens = four_humans(cardroom)
    _, version = cardroom.queries.game(game_id)
    # When a second table is created under its id (the stream's insert carries the BEGIN)
    command = tables.CreateTable((tables.SeatInfo(tables.HUMAN),) * 3, {})
    with pytest.raises(GameExists):
        cardroom.commands.create(game_id, GAME, command)
    # Then the connection is idle again, and the first game is as it was, its tokens its own
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE
    assert cardroom.queries.game(game_id)[1] == version
    for seat, token in tokens.items():
        assert cardroom.queries.game_as(game_id, token)[2] == seat


def test_a_refusal_under_the_lock_rolls_back_and_leaves_the_connection_idle(cardroom):
    # Given a game, when a token of no seat of it asks to act
    game_id, _ = four_humans(cardroom)
    _, version = cardroom.queries.game(game_id)
    with pytest.raises(Unauthorized):
        cardroom.commands.act_as(game_id, "not-a-token", ActionRequest({"type": "pass_relics"}))
    # Then nothing was appended, and no transaction (nor the game's lock) is held
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE
    assert cardroom.queries.game(game_id)[1] == version


def test_what_a_failed_unit_wrote_after_its_lock_is_rolled_back(cardroom):
    # Given a seat's token
    game_id, tokens = four_humans(cardroom)
    assert cardroom.queries.seat_for(game_id, tokens[0]) == 0
    # When a unit revokes it under the game's lock, then fails before its end
    with pytest.raises(RuntimeError), units(cardroom)() as uow:
        uow.lock(game_id)
        uow.revoke_token(game_id, 0)
        raise RuntimeError("the unit fails after writing")
    # Then the token still acts for its seat, and the connection is idle
    assert cardroom.queries.seat_for(game_id, tokens[0]) == 0
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE


def test_a_unit_that_ends_well_commits_what_it_wrote(cardroom):
    game_id, tokens = four_humans(cardroom)
    with units(cardroom)() as uow:
        head, seat = uow.lock_as(game_id, tokens[1])
        assert seat == 1 and head.version >= 1
        uow.revoke_token(game_id, 1)
    assert cardroom.queries.seat_for(game_id, tokens[1]) is None
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE


def a_legal_action(cardroom: Cardroom, game_id: uuid.UUID, uow) -> tuple:
    """The head, the table and the events of seat to_act's first legal action, decided under
    the game's lock in `uow`."""
    head = uow.lock(game_id)
    table = uow.load(game_id, head)
    seat = table.game_type.to_act(table.game)[0]
    template = table.game_type.legal_actions(table.game, seat)[0]
    action = action_from_template(template, random.Random(1))
    decided = tables.decide(table, command_from_action(table.game_type, seat, action))
    return head, table, decided


def stored_positions(cardroom: Cardroom, game_id: uuid.UUID) -> dict[int, int]:
    with cardroom.pool.connection() as conn:
        rows = conn.execute(
            "SELECT version, global_position FROM events WHERE game_id = %s", (game_id,)
        ).fetchall()
    return {row["version"]: row["global_position"] for row in rows}


def test_an_append_goes_with_the_commit_and_its_events_get_their_positions(cardroom):
    # Given a game, when a unit appends a legal action
    game_id, _ = four_humans(cardroom)
    with units(cardroom)() as uow:
        head, table, decided = a_legal_action(cardroom, game_id, uow)
        appended = uow.append(game_id, head, decided, table)
        # Then, held back for the COMMIT, its stored events cannot be read yet
        assert not appended.sent
        with pytest.raises(AppendNotSaved, match="not sent yet"):
            appended.stored  # noqa: B018
    # And once the unit has ended, they are saved and read with their positions
    saved = stored_positions(cardroom, game_id)
    stored = appended.stored
    assert stored and all(saved[e.version] == e.global_position > 0 for e in stored)
    assert cardroom.queries.game(game_id)[1] == head.version + len(stored) == appended.version


def test_a_statement_after_an_append_sends_the_append_first(cardroom):
    # Given a unit that appends, then writes something else
    game_id, tokens = four_humans(cardroom)
    with units(cardroom)() as uow:
        head, table, decided = a_legal_action(cardroom, game_id, uow)
        appended = uow.append(game_id, head, decided, table)
        uow.revoke_token(game_id, 3)
        # Then the append was sent before that statement: its positions are known already
        assert appended.sent and all(e.global_position > 0 for e in appended.stored)
    assert cardroom.queries.seat_for(game_id, tokens[3]) is None
    assert cardroom.queries.game(game_id)[1] == appended.version


def test_an_append_held_back_is_dropped_when_the_unit_rolls_back(cardroom):
    # Given a unit that appends a legal action, then fails before its end
    game_id, _ = four_humans(cardroom)
    _, version = cardroom.queries.game(game_id)
    with pytest.raises(RuntimeError, match="the unit fails"), units(cardroom)() as uow:
        head, table, decided = a_legal_action(cardroom, game_id, uow)
        appended = uow.append(game_id, head, decided, table)
        raise RuntimeError("the unit fails after its append")
    # Then the append never reached Postgres, and its events say so when read
    with pytest.raises(AppendNotSaved, match="rolled back"):
        appended.stored  # noqa: B018
    assert cardroom.queries.game(game_id)[1] == version
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE


def test_an_append_sent_before_a_rollback_is_dropped_too(cardroom):
    # Given a unit whose append went out ahead of a later statement, then that fails
    game_id, tokens = four_humans(cardroom)
    _, version = cardroom.queries.game(game_id)
    with pytest.raises(RuntimeError), units(cardroom)() as uow:
        head, table, decided = a_legal_action(cardroom, game_id, uow)
        appended = uow.append(game_id, head, decided, table)
        uow.revoke_token(game_id, 1)
        assert appended.sent
        raise RuntimeError("the unit fails after its append was sent")
    # Then nothing of it stays, and its events are no longer read as stored
    with pytest.raises(AppendNotSaved, match="rolled back"):
        appended.stored  # noqa: B018
    assert cardroom.queries.game(game_id)[1] == version
    assert cardroom.queries.seat_for(game_id, tokens[1]) == 1


def test_an_append_that_fails_at_its_commit_fails_the_unit_and_keeps_nothing(cardroom):
    # Given a unit whose append collides with an event already saved (a head one behind)
    game_id, tokens = four_humans(cardroom)
    _, version = cardroom.queries.game(game_id)
    with pytest.raises(psycopg.errors.UniqueViolation), units(cardroom)() as uow:
        head, table, decided = a_legal_action(cardroom, game_id, uow)
        uow.revoke_token(game_id, 2)  # written before the append: rolled back with it
        behind = StreamHead(head.version - 1, head.hash, head.chain_format)
        appended = uow.append(game_id, behind, decided, table)
    # Then nothing of the unit stays, and the connection is idle for the next one
    with pytest.raises(AppendNotSaved):
        appended.stored  # noqa: B018
    assert cardroom.queries.game(game_id)[1] == version
    assert cardroom.queries.seat_for(game_id, tokens[2]) == 2
    assert pooled_transaction_status(cardroom) == TransactionStatus.IDLE
