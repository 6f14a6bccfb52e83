"""Rated tables (domain/tables/rated_tables.py): every human seat is a player's, an open seat is
taken with a player key only, the bots are of rated levels, and the creation event records it
all."""

from __future__ import annotations

import pytest

from domain.games import GAME_TYPES
from domain.kit.decider import InvalidSetup
from domain.tables import table as tables
from domain.tables.rated_tables import PlayersOnly
from domain.tables.view import view_table

RATED = {"rated": True}
ANN, BOB = "player-ann", "player-bob"


def human(player: str | None = None) -> tables.SeatInfo:
    return tables.SeatInfo(tables.HUMAN, player or "someone", player=player)


def bot(level: str = "basic") -> tables.SeatInfo:
    return tables.SeatInfo(tables.BOT, "bot", level)


def open_seat(player: str | None = None) -> tables.SeatInfo:
    return tables.SeatInfo(tables.OPEN, player=player)


def create(game_type: str, seats: tuple[tables.SeatInfo, ...], options: dict) -> tables.Table:
    kind = GAME_TYPES[game_type]
    first, *_ = tables.decide_create(kind, tables.CreateTable(seats, options))
    assert isinstance(first, tables.TableCreated)
    return tables.create(kind, first)


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_every_game_type_takes_a_rated_table_of_players_and_bots(game_type):
    table = create(game_type, (human(ANN), bot("random"), bot("strong")), RATED)
    assert view_table(table, None)["rated"] is True


def test_the_creation_event_records_that_a_table_is_rated():
    seats = (human(ANN), bot(), open_seat())
    created, *_ = tables.decide_create(GAME_TYPES["saint_poker"], tables.CreateTable(seats, RATED))
    assert isinstance(created, tables.TableCreated) and created.options["rated"] is True


def test_a_table_is_unrated_unless_asked():
    table = create("saint_poker", (human(), bot(), bot()), {})
    assert view_table(table, None)["rated"] is False
    assert "rated" not in table.options  # older tables' creation events stay as they were


def test_a_rated_table_refuses_a_human_seat_that_is_no_players():
    with pytest.raises(InvalidSetup, match="player"):
        create("trick_and_snipers", (human(ANN), human(), bot()), RATED)


def test_a_rated_table_seats_only_bots_of_rated_levels():
    kind = GAME_TYPES["trick_and_snipers"]
    odd = tables.SeatInfo(tables.BOT, "bot", "unheard-of")
    with pytest.raises(InvalidSetup):
        tables.decide_create(kind, tables.CreateTable((human(ANN), odd, bot()), RATED))


@pytest.mark.parametrize("value", [1, "yes", None])
def test_rated_is_true_or_false(value):
    with pytest.raises(InvalidSetup, match="rated"):
        create("trick_and_snipers", (human(ANN), bot(), bot()), {"rated": value})


def test_an_open_seat_of_a_rated_table_is_taken_with_a_player_key_only():
    table = create("trick_and_snipers", (human(ANN), open_seat(), bot()), RATED)
    with pytest.raises(PlayersOnly):
        tables.decide(table, tables.JoinSeat(1, "anonymous"))
    (joined,) = tables.decide(table, tables.JoinSeat(1, "bob", player=BOB))
    assert isinstance(joined, tables.SeatJoined) and joined.player == BOB


def test_a_table_of_bots_alone_may_be_rated():
    table = create("ouroboros_trick", (bot("random"), bot("basic"), bot("strong")), RATED)
    assert table.is_full and view_table(table, None)["rated"] is True
