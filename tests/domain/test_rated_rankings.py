"""Each game's result as a ranking for ratings (G7, domain/kit/ranking.py and each game's
`ranking`): the game's own final order and tiebreaks, ties shared, and a leaver last; and the
rated result read from a table's events alone (domain/tables/rated_games.py)."""

from __future__ import annotations

import random

import pytest

from domain.games import GAME_TYPES
from domain.games.saint_poker.scoring import game_end as saint_poker_end
from domain.games.st_patrick.scoring import game_end as st_patrick_end
from domain.games.trick_and_snipers.scoring import game_end as trick_and_snipers_end
from domain.kit.outcome import GameEnded
from domain.kit.ranking import leavers_last, ranks_by
from domain.tables import policy, selfplay
from domain.tables import table as tables
from domain.tables.presence import LeaveSeat
from domain.tables.rated_games import rated_result
from domain.tables.rated_tables import BOT_RATERS

ST_PATRICK, SAINT_POKER = GAME_TYPES["st_patrick"], GAME_TYPES["saint_poker"]
TRICK_AND_SNIPERS, OUROBOROS = GAME_TYPES["trick_and_snipers"], GAME_TYPES["ouroboros_trick"]


def test_equal_keys_share_a_place_and_the_next_place_is_skipped():
    assert ranks_by([(3,), (5,), (3,), (1,)]) == (2, 1, 2, 4)


def test_st_patrick_ranks_by_life_then_relics_then_snakes():
    # Three seats at 5 life: relics put seat 1 first, snakes seat 0 before seat 2
    ended = st_patrick_end(life=(5, 5, 5, -1), relics=(2, 3, 2, 9), bites_taken=(0, 0, 0, 15),
                           snakes=(4, 0, 1, 9))  # fmt: skip
    assert ST_PATRICK.ranking(ended, 4) == (2, 1, 3, 4)


def test_st_patrick_seats_tied_on_every_tiebreak_share_their_place():
    ended = st_patrick_end(life=(7, -2, 7), relics=(1, 0, 1), bites_taken=(3, 9, 3),
                           snakes=(2, 5, 2))  # fmt: skip
    assert ST_PATRICK.ranking(ended, 3) == (1, 3, 1)


def test_trick_and_snipers_ranks_the_seat_that_reached_two_points_first_then_by_points_and_tricks():
    ended = trick_and_snipers_end(points=(1, 2, 1, 0), tricks=(4, 2, 3, 5), hands_empty=False)
    assert ended is not None
    assert TRICK_AND_SNIPERS.ranking(ended, 4) == (2, 1, 3, 4)


def test_trick_and_snipers_ties_on_points_and_tricks_when_the_hands_run_out():
    ended = trick_and_snipers_end(points=(1, 1, 0), tricks=(4, 4, 4), hands_empty=True)
    assert ended is not None and ended.winners == (0, 1)
    assert TRICK_AND_SNIPERS.ranking(ended, 3) == (1, 1, 3)


def test_saint_poker_ranks_by_points_and_equal_points_tie():
    ended = saint_poker_end([10, 20, 20, 5, 10])
    assert SAINT_POKER.ranking(ended, 5) == (3, 1, 1, 5, 3)


def test_ouroboros_ranks_its_loser_last_and_every_other_seat_tied_first():
    ended = GameEnded(winners=(0, 2, 3), losers=(1,), final={})
    assert OUROBOROS.ranking(ended, 4) == (1, 4, 1, 1)


def test_ouroboros_losers_who_lose_together_share_the_last_place():
    ended = GameEnded(winners=(1, 2), losers=(0, 3), final={})
    assert OUROBOROS.ranking(ended, 4) == (3, 1, 1, 3)


def test_a_seat_that_left_ranks_below_every_seat_still_playing():
    assert leavers_last((1, 2, 3, 4), left={0}) == (4, 1, 2, 3)
    assert leavers_last((1, 1, 3), left={1}) == (1, 3, 2)


def test_seats_that_left_share_the_last_place_whatever_their_bots_did():
    assert leavers_last((1, 2, 3, 4), left={0, 2}) == (3, 1, 3, 2)


def rated_bots(game_type, levels, seed):
    return selfplay.play_out(game_type, levels, random.Random(seed), {"rated": True})


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_a_rated_bot_game_is_rated_by_its_own_ranking(game_type):
    kind = GAME_TYPES[game_type]
    table, events = rated_bots(kind, ["random", "basic", "random"], seed=5)
    result = rated_result(kind, events)
    assert result is not None and result.game_type == game_type
    assert result.raters == (BOT_RATERS["random"], BOT_RATERS["basic"], BOT_RATERS["random"])
    assert table.game.outcome is not None
    ended = next(e for e in events if isinstance(e, GameEnded))
    assert result.ranks == kind.ranking(ended, 3)


def test_an_unrated_or_unfinished_table_has_nothing_to_rate():
    _, events = selfplay.play_out(TRICK_AND_SNIPERS, ["random"] * 3, random.Random(1))
    assert rated_result(TRICK_AND_SNIPERS, events) is None
    table, created = selfplay.bot_table(TRICK_AND_SNIPERS, ["random"] * 3, {"rated": True})
    assert rated_result(TRICK_AND_SNIPERS, created) is None


def player_table(seats, options):
    created, *rest = tables.decide_create(SAINT_POKER, tables.CreateTable(seats, options))
    assert isinstance(created, tables.TableCreated)
    return tables.create(SAINT_POKER, created), [created, *rest]


def played_to_the_end(table, events, rng):
    """Every seat, human or bot, plays as the basic bot would until the game is over."""
    while table.status != "finished":
        due = policy.due(table)
        if isinstance(due, policy.DealDue):
            decided = tables.decide(table, policy.deal(table, rng))
        elif isinstance(due, policy.AutomaticDue):
            decided = policy.automatic_work(table, due.kind)
        else:
            seat = rng.choice(tables.seats_to_act(table))
            decided = policy.bot_move(table, seat, rng, tables.BASIC).events
        table, events = apply(table, events, decided)
    return table, events


def apply(table, events, new):
    for event in new:
        table = tables.evolve(table, event)
    return table, [*events, *new]


def test_a_player_who_leaves_a_rated_game_is_its_rater_and_ranks_last():
    # Given a rated table of Ann and two bots, dealt
    ann = tables.SeatInfo(tables.HUMAN, "Ann", player="ann")
    bots = [tables.SeatInfo(tables.BOT, "b", level) for level in ("basic", "strong")]
    table, events = player_table((ann, *bots), {"rated": True})
    rng = random.Random(3)
    table, events = apply(table, events, tables.decide(table, policy.deal(table, rng)))
    # When Ann leaves and the basic bot plays her seat to the end
    table, events = apply(table, events, tables.decide(table, LeaveSeat(0)))
    for step in selfplay.steps(table, rng):
        events.extend(step.events)
    # Then she is rated, last, whatever her seat's bot did
    result = rated_result(SAINT_POKER, events)
    assert result is not None and result.raters[0] == "ann"
    assert result.ranks[0] == 3 and sorted(result.ranks[1:]) in ([1, 2], [1, 1])


def test_a_player_who_leaves_before_the_deal_gives_the_seat_to_the_next_player():
    # Given a rated table where Ann sits and a seat is open
    ann = tables.SeatInfo(tables.HUMAN, "Ann", player="ann")
    bot = tables.SeatInfo(tables.BOT, "b", "basic")
    table, events = player_table((ann, tables.SeatInfo(tables.OPEN), bot), {"rated": True})
    # When Ann leaves before the deal, Bo and Cy take the open seats and the game is played
    for command in (LeaveSeat(0), tables.JoinSeat(1, "Bo", None, "bo"),
                    tables.JoinSeat(0, "Cy", None, "cy")):  # fmt: skip
        table, events = apply(table, events, tables.decide(table, command))
    table, events = played_to_the_end(table, events, random.Random(4))
    # Then Cy is the first seat's rater, and no one ranks last for leaving
    result = rated_result(SAINT_POKER, events)
    ended = next(e for e in events if isinstance(e, GameEnded))
    assert result is not None and result.raters == ("cy", "bo", BOT_RATERS["basic"])
    assert result.ranks == SAINT_POKER.ranking(ended, 3)
