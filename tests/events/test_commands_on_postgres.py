"""The command service on real Postgres: concurrent commands, expected versions, a cache that
another process made stale, and refusals that append nothing."""

from __future__ import annotations

import threading
import uuid

import pytest

from domain.games import get_game_type
from domain.tables import table as tables
from events.bootstrap import Cardroom, bootstrap
from events.errors import VersionConflict
from events.operations.settings import Settings

GAME = get_game_type("trick_and_snipers")


@pytest.fixture()
def cardroom(database_url, tmp_path):
    built = bootstrap(
        Settings(database_url=database_url, audit_key_file=str(tmp_path / "k.pem")), pool_size=8
    )
    yield built
    built.close()


INVITES: dict[uuid.UUID, dict[int, str]] = {}


def open_table(cardroom: Cardroom, seats: int = 5) -> uuid.UUID:
    game_id = uuid.uuid4()
    command = tables.CreateTable((tables.SeatInfo(tables.OPEN),) * seats, {})
    INVITES[game_id] = cardroom.commands.create(game_id, GAME, command).secrets.invites
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


def join(cardroom: Cardroom, game_id: uuid.UUID, seat: int):
    invite = INVITES[game_id][seat]
    return lambda: cardroom.commands.join(game_id, seat, f"p{seat}", invite)


def pass_first_cards(cardroom: Cardroom, game_id: uuid.UUID, seat: int, expected: int):
    table, _ = cardroom.queries.game(game_id)
    template = table.game_type.legal_actions(table.game, seat)[0]
    cards = template["cards"][: template["count"]]
    action = {"type": "pass_cards", "cards": cards}
    return lambda: cardroom.commands.act(game_id, seat, action, expected_version=expected)


def test_concurrent_commands_without_expected_version_are_all_redecided_and_appended(cardroom):
    game_id = open_table(cardroom)
    results = run_together([join(cardroom, game_id, seat) for seat in range(5)])
    assert not [r for r in results if isinstance(r, Exception)]
    table, version = cardroom.queries.game(game_id)
    assert table.is_full and table.started
    assert version == max(r.version for r in results)


def test_concurrent_commands_at_the_same_expected_version_let_exactly_one_win(cardroom):
    game_id = open_table(cardroom, seats=3)
    for seat in range(3):
        join(cardroom, game_id, seat)()
    _, version = cardroom.queries.game(game_id)
    passes = [pass_first_cards(cardroom, game_id, seat, version) for seat in range(3)]
    results = run_together(passes)
    winners = [r for r in results if not isinstance(r, Exception)]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(winners) == 1 and len(conflicts) == 2
    assert all(conflict.current_version == version + 1 for conflict in conflicts)


def test_a_service_with_a_stale_cache_sees_what_another_process_appended(cardroom, database_url):
    game_id = open_table(cardroom, seats=3)
    other = bootstrap(cardroom.settings, pool_size=2)  # another process: its own cache
    try:
        cardroom.queries.game(game_id)  # cached here at version 2 (TableCreated, its seed)
        join(other, game_id, 0)()
        committed = join(cardroom, game_id, 1)()
    finally:
        other.close()
    assert committed.version == 4
    assert [seat.name for seat in committed.table.seats] == ["p0", "p1", None]


def test_a_refused_command_appends_nothing(cardroom):
    game_id = open_table(cardroom, seats=3)
    join(cardroom, game_id, 0)()
    with pytest.raises(tables.SeatTaken):
        join(cardroom, game_id, 0)()
    assert cardroom.queries.game(game_id)[1] == 3
