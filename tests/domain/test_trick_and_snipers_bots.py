"""Bots play legal complete games from their own view only, and the basic bot plays better."""

from __future__ import annotations

import random

import pytest

from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.bots import basic_bot, choose_pass, choose_play
from domain.shared.tricks import Play
from tests.domain.tns_support import card, cards, deal, given, play_bot_game


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("level", ["random", "basic"])
def test_each_bot_level_plays_complete_legal_games(players, level):
    for seed in range(20):
        state, _ = play_bot_game(players, seed, [level] * players)
        assert GAME.is_terminal(state)


def test_the_basic_bot_wins_more_often_than_a_random_bot():
    games = 300
    wins = {"basic": 0, "random": 0}
    for seed in range(games):
        levels = ["random"] * 4
        levels[seed % 4] = "basic"
        state, _ = play_bot_game(4, seed, levels)
        for seat in state.outcome.winners:
            wins[levels[seat]] += 1 / len(state.outcome.winners)
    assert wins["basic"] / games > 0.35  # a random seat wins about 1/4 of the time


def test_the_basic_bot_snipes_when_it_is_void_in_the_led_suit():
    trick = (Play(0, card("r4")), Play(1, card("r5")))
    assert choose_play(trick, list(cards("y2 y8 b12")), last=True) == card("y8")


def test_the_basic_bot_takes_a_trick_holding_a_7_when_it_can():
    trick = (Play(0, card("r7")), Play(1, card("r9")))
    assert choose_play(trick, list(cards("r2 r10 r12")), last=True) == card("r10")


def test_the_basic_bot_keeps_its_7_out_of_a_trick_it_cannot_win():
    trick = (Play(0, card("r12")),)
    assert choose_play(trick, list(cards("r7 r3")), last=False) == card("r3")
    assert choose_play(trick, list(cards("y7 b3")), last=False) == card("b3")


def test_the_basic_bot_passes_unprotected_7s_first():
    hand = list(cards("r7 r1 y12 y11 y10 y9 y8 g7 g12 g1 b1 b2"))
    assert card("r7") in choose_pass(hand, 4) and card("g7") not in choose_pass(hand, 4)


def test_a_bot_acts_from_the_seats_view_alone():
    state = given(deal(3, seed=9)).state
    action = basic_bot(GAME.view(state, 1), random.Random(0))
    assert action["type"] == "pass_cards" and len(action["cards"]) == 4
