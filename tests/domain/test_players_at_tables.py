"""Players at a table (domain/tables/table.py) and what a commit tells them
(domain/tables/notices.py): a player has one seat per table, a seat kept for a player is its alone,
and each commit names the players whose turn began, whose game started or ended, who timed out or
lost a seat."""

from __future__ import annotations

import random

import pytest

from domain.games import GAME_TYPES
from domain.kit.decider import Event, InvalidSetup, SeatTaken
from domain.kit.templates import action_from_template
from domain.tables import notices, policy
from domain.tables import table as tables
from domain.tables.presence import LeaveSeat, TimeOut
from domain.tables.view import view_table

TNS = GAME_TYPES["trick_and_snipers"]
ANN, BOB = "player-ann", "player-bob"


def seat(kind: str, player: str | None = None) -> tables.SeatInfo:
    name = None if kind == tables.OPEN else player or "someone"
    level = "basic" if kind == tables.BOT else None
    return tables.SeatInfo(kind, name, level, player=player)


def created(*seats: tables.SeatInfo, options: dict | None = None):
    """The table once created (and dealt, if no seat is open), and the events of that commit."""
    first, *rest = tables.decide_create(TNS, tables.CreateTable(seats, options or {}))
    assert isinstance(first, tables.TableCreated)
    table = tables.create(TNS, first)
    table, events = policy.with_deals(table, rest, random.Random(1))
    return table, [first, *events]


def committed(table: tables.Table, command) -> tuple[tables.Table, list[Event]]:
    decided = tables.decide(table, command)
    return policy.with_deals(table, decided, random.Random(2))


def first_move(table: tables.Table, seat_index: int):
    from domain.tables.actions import command_from_action

    template = table.game_type.legal_actions(table.game, seat_index)[0]
    action = action_from_template(template, random.Random(3))
    return command_from_action(table.game_type, seat_index, action)


def kinds(found: list[notices.Notice]) -> list[tuple[str, int, str]]:
    return [(n.kind, n.seat, n.player) for n in found]


def test_a_player_sits_at_one_seat_of_a_table_at_most():
    twice = (seat("human", ANN), seat("human", ANN), seat("bot"))
    with pytest.raises(InvalidSetup):
        tables.decide_create(TNS, tables.CreateTable(twice, {}))


def test_a_bots_seat_is_no_players():
    bot = tables.SeatInfo(tables.BOT, "b", "basic", player=ANN)
    with pytest.raises(InvalidSetup):
        tables.decide_create(TNS, tables.CreateTable((bot, seat("human"), seat("human")), {}))


def test_a_seat_kept_for_a_player_is_taken_by_that_player_only():
    table, _ = created(seat("human", ANN), seat("open", BOB), seat("bot"))
    with pytest.raises(tables.ReservedSeat):
        tables.decide(table, tables.JoinSeat(1, "eve"))
    with pytest.raises(tables.ReservedSeat):
        tables.decide(table, tables.JoinSeat(1, "ann", player=ANN))
    (joined,) = tables.decide(table, tables.JoinSeat(1, "bob", player=BOB))
    assert isinstance(joined, tables.SeatJoined) and joined.player == BOB


def test_a_player_already_seated_cannot_take_another_seat():
    table, _ = created(seat("human", ANN), seat("open"), seat("bot"))
    with pytest.raises(SeatTaken):
        tables.decide(table, tables.JoinSeat(1, "ann again", player=ANN))


def test_who_sits_where_is_public_in_every_view():
    table, _ = created(seat("human", ANN), seat("human"), seat("bot"))
    for viewer in (None, 0, 1):
        shown = view_table(table, viewer)["seats"]
        assert shown[0]["player_id"] == ANN and "player_id" not in shown[1]


def test_creating_a_table_tells_a_kept_seats_player_it_is_invited():
    # Given a table with Ann seated and a seat kept open for Bob
    table, events = created(seat("human", ANN), seat("open", BOB), seat("bot"))
    # Then the creation invites Bob, and nothing has started
    assert kinds(notices.notices_of(None, table, events)) == [("invited", 1, BOB)]


def test_the_deal_tells_every_player_the_game_started_and_whose_turn_it_is():
    table, events = created(seat("human", ANN), seat("human", BOB), seat("bot"))
    found = kinds(notices.notices_of(None, table, events))
    assert ("game_started", 0, ANN) in found and ("game_started", 1, BOB) in found
    # Trick & Snipers passes at once: both players' turns begin with the deal
    assert ("your_turn", 0, ANN) in found and ("your_turn", 1, BOB) in found


def test_a_move_tells_nobody_whose_turn_goes_on():
    # Given both players asked to pass, when Ann passes
    table, _ = created(seat("human", ANN), seat("human", BOB), seat("bot"))
    after, events = committed(table, first_move(table, 0))
    # Then Bob, still waited for since the deal, is not told again; Ann is not asked anything
    assert [n for n in notices.notices_of(table, after, events) if n.kind == "your_turn"] == []


def test_a_timeout_tells_its_player_and_the_last_one_loses_the_seat():
    # Given a timed table allowing one timeout
    options = {"turn_seconds": 5, "max_timeouts": 1}
    table, _ = created(seat("human", ANN), seat("human", BOB), seat("bot"), options=options)
    waited = dict(table.waiting)[0]
    # When Ann's turn runs out
    after, events = committed(table, TimeOut(0, waited, now=10.0, deadline=5.0))
    # Then she is told it timed out, and that the seat is no longer hers
    found = kinds(notices.notices_of(table, after, events))
    assert found[:2] == [("timed_out", 0, ANN), ("seat_lost", 0, ANN)]
    assert after.seats[0].player is None and after.seats[0].kind == tables.BOT


def test_the_end_tells_every_player_still_seated():
    table, _ = created(seat("human", ANN), seat("human", BOB), seat("bot"))
    table, _ = committed(table, LeaveSeat(1))  # Bob leaves: a bot plays his seat
    for _ in range(500):
        if table.status == "finished":
            break
        before = table
        to_act = table.game_type.to_act(table.game)
        table, events = committed(table, first_move(table, to_act[0]))
    found = kinds(notices.notices_of(before, table, events))
    assert ("game_ended", 0, ANN) in found and all(player != BOB for _, _, player in found)
