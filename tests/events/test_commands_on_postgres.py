"""The command handler on real Postgres: concurrent commands, retries and expected versions."""

from __future__ import annotations

import threading
import uuid

import pytest

from domain import table as tables
from domain.games import get_game_type
from events.db import make_pool
from events.handler import Handler, VersionConflict

GAME = get_game_type("trick_and_snipers")


@pytest.fixture()
def handler(database_url):
    pool = make_pool(database_url, max_size=8)
    yield Handler(pool)
    pool.close()


def open_table(handler: Handler, seats: int = 5) -> uuid.UUID:
    game_id = uuid.uuid4()
    command = tables.CreateTable((tables.SeatInfo(tables.OPEN),) * seats, {})
    handler.create(game_id, GAME, command)
    return game_id


def run_together(functions) -> list:
    barrier = threading.Barrier(len(functions))
    results: list = [None] * len(functions)

    def run(index, function):
        barrier.wait()
        try:
            results[index] = function()
        except Exception as error:  # collected, asserted by the caller
            results[index] = error

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def join(handler: Handler, game_id: uuid.UUID, seat: int, expected: int | None = None):
    def decision(table):
        return tables.decide(table, tables.JoinSeat(seat, f"p{seat}"))

    return lambda: handler.execute(game_id, decision, expected_version=expected)


def test_concurrent_commands_without_expected_version_are_all_redecided_and_appended(handler):
    game_id = open_table(handler)
    results = run_together([join(handler, game_id, seat) for seat in range(5)])
    assert not [r for r in results if isinstance(r, Exception)]
    with handler.pool.connection() as conn:
        table, version = Handler(handler.pool).repository.load(conn, game_id)
    assert table.is_full and table.started
    assert version == max(r.version for r in results)


def test_concurrent_commands_at_the_same_expected_version_let_exactly_one_win(handler):
    game_id = open_table(handler)
    results = run_together([join(handler, game_id, seat, expected=1) for seat in range(5)])
    winners = [r for r in results if not isinstance(r, Exception)]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(winners) == 1 and len(conflicts) == 4
    assert all(conflict.current_version == 2 for conflict in conflicts)


def test_a_handler_with_a_stale_cache_sees_what_another_process_appended(handler):
    game_id = open_table(handler, seats=3)
    other = Handler(handler.pool)  # another process: its own cache
    with handler.pool.connection() as conn:
        handler.repository.load(conn, game_id)
    join(other, game_id, 0)()
    outcome = join(handler, game_id, 1)()
    assert outcome.version == 3
    assert [seat.name for seat in outcome.table.seats] == ["p0", "p1", None]


def test_a_refused_command_appends_nothing(handler):
    game_id = open_table(handler, seats=3)
    join(handler, game_id, 0)()
    with pytest.raises(tables.SeatTaken):
        join(handler, game_id, 0)()
    with handler.pool.connection() as conn:
        assert Handler(handler.pool).repository.load(conn, game_id)[1] == 2
