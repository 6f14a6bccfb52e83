"""Bots play legal complete games from their own view only, and the basic bot scores more."""

from __future__ import annotations

import random

import pytest

from domain.games.saint_poker import GAME
from domain.games.saint_poker.bots import basic_bot, choose_commit, choose_pick, choose_reveal
from domain.tables.selfplay import play_out
from tests.domain.sp_support import card, cards, deal, given


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("level", ["random", "basic"])
def test_each_bot_level_plays_complete_legal_games(players, level):
    for seed in range(5):
        table, _ = play_out(GAME, [level] * players, random.Random(seed))
        assert GAME.is_terminal(table.game)  # decide refused nothing on the way


def test_the_basic_bot_scores_more_than_random_bots_on_average():
    games, points = 60, {"basic": 0, "random": 0}
    for seed in range(games):
        players = 2 + seed % 4
        levels = ["random"] * players
        levels[seed % players] = "basic"
        table, _ = play_out(GAME, levels, random.Random(seed))
        for seat, level in enumerate(levels):
            points[level] += table.game.points[seat] / levels.count(level)
    # Per seat and game: the basic bot must clearly beat the average random seat.
    assert points["basic"] / games > 1.5 * points["random"] / games


def test_the_basic_bot_reveals_the_best_pair_for_the_river():
    river = cards("9h 8h 7h 2c 3s")
    assert set(choose_reveal(cards("6h 5h Ks Kd Ac"), river)) == set(cards("6h 5h"))
    assert set(choose_reveal(cards("2d 2s Ks Qd"), river)) == set(cards("2d 2s"))


def test_the_basic_bot_commits_a_low_lone_card_and_keeps_its_pairs():
    hand = cards("As Ad Kh 9c 3d 4s")
    assert choose_commit(hand, cards("2h")) == card("3d")


def test_the_basic_bot_picks_up_the_card_that_pairs_its_hand():
    hand = cards("9s 4d 2c")
    assert choose_pick(hand, cards("Ah 9d 3c")) == card("9d")
    assert choose_pick(cards("5s 4d"), cards("Ah Kc 3c")) == card("Ah")


def test_a_bot_acts_from_the_seats_view_alone():
    state = given(deal(3, seed=9)).state
    action = basic_bot(GAME.view(state, 1), random.Random(0))
    assert action["type"] == "commit_river_card"
    assert action["card"] in GAME.view(state, 1)["you"]["hand"]
