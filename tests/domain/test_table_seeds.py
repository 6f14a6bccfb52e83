"""A table's seeds (G6, domain/shared/seeds.py, domain/tables/fair_deals.py): what its creation
publishes and seals, who gives a seed and when it counts, what nobody sees before the end, and what
makes the deals fair."""

from __future__ import annotations

import hashlib

import pytest

from domain.games import GAME_TYPES
from domain.kit.codec import to_json
from domain.kit.decider import Event, InvalidSetup
from domain.shared.seeds import (
    PLAYER,
    SERVER,
    ClientSeed,
    SeedSetup,
    ServerSeedSealed,
    seed_commitment,
)
from domain.tables import policy
from domain.tables import table as tables
from domain.tables.fair_deals import deals_fair, fair_seats, seeded_deal
from domain.tables.view import event_data_for, view_table

TNS = GAME_TYPES["trick_and_snipers"]
GAME = "c0ffee00-0000-4000-8000-000000000001"
SERVER_SEED = "5e" * 32
HUMAN, BOT, OPEN = (
    tables.SeatInfo(tables.HUMAN, "ann"),
    tables.SeatInfo(tables.BOT, level="basic"),
    tables.SeatInfo(tables.OPEN),
)
ANN, DRAWN, BOB = (
    ClientSeed("ann", PLAYER),
    ClientSeed("00" * 16, SERVER),
    ClientSeed("bob", PLAYER),
)


def created(
    seats=(HUMAN, BOT, OPEN), seeds=(ANN, None, None), in_advance=True, fixed_decks=()
) -> tuple[tables.Table, list[Event]]:
    setup = SeedSetup(SERVER_SEED, in_advance, tuple(seeds))
    command = tables.CreateTable(tuple(seats), {}, fixed_decks, seeding=setup)
    first, *rest = tables.decide_create(TNS, command)
    assert isinstance(first, tables.TableCreated)
    table = tables.create(TNS, first)
    for event in rest:
        table = tables.evolve(table, event)
    return table, [first, *rest]


def joined(table: tables.Table, seat: int, seed: ClientSeed) -> tables.Table:
    for event in tables.decide(table, tables.JoinSeat(seat, "bob", seed)):
        table = tables.evolve(table, event)
    return table


def dealt(table: tables.Table) -> tables.Table:
    """A seeded table's deal takes no generator: everything comes from its seeds."""
    return policy.with_deals(table, [], rng=None, game_id=GAME)[0]  # type: ignore[arg-type]


def test_the_creation_publishes_the_commitment_and_seals_the_server_seed():
    _, (table_created, sealed) = created()
    assert table_created.seeding is not None
    assert (
        table_created.seeding.commitment == hashlib.sha256(bytes.fromhex(SERVER_SEED)).hexdigest()
    )
    assert sealed == ServerSeedSealed(SERVER_SEED) and sealed.visible_to() == ()
    assert to_json(table_created)["seeding"]["client_seeds"] == [
        {"seed": "ann", "by": "player"},
        None,
        None,
    ]


def test_a_table_without_seeds_records_its_creation_as_before():
    command = tables.CreateTable((HUMAN, BOT, BOT), {})
    (table_created,) = tables.decide_create(TNS, command)
    assert "seeding" not in to_json(table_created)


@pytest.mark.parametrize(
    "seeds",
    [
        (ANN, ClientSeed("bot's", PLAYER), None),  # a bot never contributes
        (None, None, None),  # a human seat always has a seed (the server draws one if need be)
        (ANN, None, ClientSeed("open", PLAYER)),  # an open seat's seed comes with its player
        (ClientSeed("", PLAYER), None, None),
        (ClientSeed("x" * 65, PLAYER), None, None),
        (ClientSeed("tab\there", PLAYER), None, None),
        (ClientSeed("ann", "someone"), None, None),
    ],
)
def test_seeds_that_no_table_takes_are_refused(seeds):
    with pytest.raises(InvalidSetup):
        created(seeds=seeds)


def test_a_server_seed_that_is_not_32_bytes_in_hex_is_refused():
    setup = SeedSetup("AB" * 32, True, (ANN, None, None))
    with pytest.raises(InvalidSetup):
        tables.decide_create(TNS, tables.CreateTable((HUMAN, BOT, OPEN), {}, seeding=setup))


def test_a_seat_joining_a_seeded_table_brings_its_seed_and_it_counts():
    # Given a table whose commitment came with its creation, seat 0's seed in the same body
    table, _ = created(in_advance=False)
    assert fair_seats(table) == ()
    # When seat 2 joins with a seed of its own
    table = joined(table, 2, BOB)
    # Then that seed came after the commitment; the one of the creation did not
    assert table.seeds is not None and table.seeds.client_seeds == (ANN, None, BOB)
    assert fair_seats(table) == (2,)


def test_a_seat_joining_a_seeded_table_without_a_seed_is_refused():
    table, _ = created()
    with pytest.raises(InvalidSetup):
        tables.decide(table, tables.JoinSeat(2, "bob"))


def test_a_seat_joining_a_table_from_before_seeds_brings_none():
    (table_created,) = tables.decide_create(TNS, tables.CreateTable((HUMAN, BOT, OPEN), {}))
    assert isinstance(table_created, tables.TableCreated)
    table = tables.create(TNS, table_created)
    with pytest.raises(InvalidSetup):
        tables.decide(table, tables.JoinSeat(2, "bob", BOB))


def test_a_seat_left_before_the_deal_takes_its_seed_away():
    # Given a seat taken with a seed
    table = joined(created()[0], 2, BOB)
    table = tables.evolve(table, tables.decide(table, tables.LeaveSeat(2))[0])
    # Then the seat is open again, without a seed
    assert table.seats[2].kind == tables.OPEN and table.seeds is not None
    assert table.seeds.client_seeds[2] is None and fair_seats(table) == (0,)


def test_a_seed_the_server_drew_never_counts():
    table, _ = created(seeds=(DRAWN, None, None))
    table = joined(table, 2, ClientSeed("11" * 16, SERVER))
    assert fair_seats(table) == () and not deals_fair(table)


def test_deals_are_fair_with_a_players_seed_after_a_commitment_made_in_advance():
    assert deals_fair(joined(created()[0], 2, BOB))


def test_deals_are_never_fair_when_the_commitment_came_with_the_table():
    assert not deals_fair(joined(created(in_advance=False)[0], 2, BOB))


def test_deals_are_never_fair_with_fixed_decks():
    deck = TNS.cards_to_deal(TNS.new_game(3, dict(TNS.options))) or ()
    table, _ = created(seats=(HUMAN, BOT, BOT), fixed_decks=(tuple(deck),))
    assert fair_seats(table) == (0,) and not deals_fair(table)
    assert dealt(table).game.hands[0] == tuple(deck[:12])  # the fixed deck, as dealt


def test_a_full_table_deals_the_derived_deck():
    table = joined(created()[0], 2, BOB)
    deal = seeded_deal(table, GAME)
    after = dealt(table)
    assert after.game.hands[0] == deal.deck[:12] and after.deals_made == 1


def test_nobody_sees_the_server_seed_before_the_end():
    table, (_, sealed) = created()
    for viewer in (None, 0, 1, 2):
        assert SERVER_SEED not in str(view_table(table, viewer))
        assert event_data_for(sealed, viewer, finished=False) == {}
    assert view_table(table, None)["seeding"]["server_seed"] is None
    assert SERVER_SEED not in repr(table) and SERVER_SEED not in repr(sealed)
    assert event_data_for(sealed, None, finished=True) == {"seed": SERVER_SEED}


def test_the_commitment_is_the_sha256_of_the_seeds_32_bytes():
    assert seed_commitment("00" * 32) == hashlib.sha256(bytes(32)).hexdigest()
