"""Bots play legal complete games from their own view only, and the basic bot plays better."""

from __future__ import annotations

import random

import pytest

from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.bots import basic_bot, choose_discard, choose_play
from domain.shared.tricks import Play
from tests.domain.ouro_support import (
    card,
    cards,
    deal,
    discard,
    discarded,
    given,
    play_bot_game,
    playing,
    trick,
)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("level", ["random", "basic"])
def test_each_bot_level_plays_complete_legal_games(players, level):
    for seed in range(20):
        state, _ = play_bot_game(players, seed, [level] * players)
        assert GAME.is_terminal(state)


def test_the_basic_bot_loses_less_often_than_a_random_bot():
    games, lost, seats = 300, {"basic": 0.0, "random": 0.0}, {"basic": 0, "random": 0}
    for seed in range(games):
        players = 3 + seed % 3
        levels = ["random"] * players
        levels[seed % players] = "basic"
        state, _ = play_bot_game(players, seed, levels)
        for seat, level in enumerate(levels):
            seats[level] += 1
            lost[level] += seat in state.outcome.losers
    basic, rand = lost["basic"] / seats["basic"], lost["random"] / seats["random"]
    assert basic < rand * 0.6, (basic, rand)


def test_the_basic_bot_wins_a_cheap_trick_when_it_plays_last():
    trick = (Play(0, card("r2")), Play(1, card("r9")))
    assert choose_play(trick, list(cards("r4 r10 r12")), players=3) == card("r10")


def test_the_basic_bot_ducks_a_dear_trick_shedding_its_highest_losing_card():
    trick = (Play(0, card("r8")), Play(1, card("r9")))
    assert choose_play(trick, list(cards("r4 r7 r11")), players=3) == card("r7")


def test_the_basic_bot_trumps_a_cheap_trick_when_void_in_the_led_suit():
    trick = (Play(0, card("r1")), Play(1, card("y5")))
    assert choose_play(trick, list(cards("b3 b6 g5")), players=3) == card("g5")


def test_the_basic_bot_leads_the_highest_card_of_its_shortest_suit():
    assert choose_play((), list(cards("r1 r2 r3 y9 y4 b2 b6")), players=4) == card("y9")


def test_the_basic_bot_discards_its_shortest_suit_first_on_the_way_to_a_void():
    hand = list(cards("r9 r1 y1 y2 y3 b4 b12 g2 g5 g7"))
    assert choose_discard(hand, 1) == list(cards("r1"))
    assert choose_discard(hand, 2) == list(cards("r1 r9"))  # its highest card too: a void
    assert choose_discard(hand, 4) == list(cards("r1 r9 b4 b12"))  # then the next short suit


def test_a_bot_acts_from_the_seats_view_alone():
    state = given(deal(3, seed=9)).state
    action = basic_bot(GAME.view(state, 0), random.Random(0))
    assert action["type"] == "play_card"
    owing = given(playing(["r6 y1 y2 y3", "r9 g1 g2 g3", "r2 b1 b2"]), trick("r6 r9 r2", 0, 1))
    action = basic_bot(GAME.view(owing.state, 1), random.Random(0))
    assert action == {"type": "discard", "cards": [c.to_json() for c in cards("g1 g2")]}
    owing.when(discard(1, "g1 g2")).then(discarded(1, "g1 g2"))  # and it is legal
