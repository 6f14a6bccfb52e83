"""St Patrick bots play legal complete games from their own view only, and basic plays better."""

from __future__ import annotations

import random

import pytest

from domain.games.st_patrick import GAME
from domain.games.st_patrick.bots import basic_bot, choose_play, relics_to_take
from domain.games.st_patrick.state import DECK
from domain.kit.decider import Deal
from domain.shared.tricks import Play
from domain.tables.selfplay import bot_table, play_out, steps
from tests.domain.stp_support import card, cards, dealt, given, relics


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("level", ["random", "basic"])
def test_each_bot_level_only_chooses_legal_actions_to_the_end_of_the_game(players, level):
    for seed in range(8):
        table, _ = bot_table(GAME, [level] * players)
        # selfplay hands each bot its own view and decides its action: an illegal one raises
        for step in steps(table, random.Random(seed)):
            table = step.table
        assert table.status == "finished"


def test_the_basic_bot_wins_more_often_than_a_random_bot():
    games = 100
    wins = {"basic": 0.0, "random": 0.0}
    for seed in range(games):
        levels = ["random"] * 4
        levels[seed % 4] = "basic"
        table, _ = play_out(GAME, levels, random.Random(seed))
        winners = table.game.outcome.winners
        for seat in winners:
            wins[levels[seat]] += 1 / len(winners)
    assert wins["basic"] / games > 0.4  # a random seat wins about 1/4 of the time


def test_the_basic_bot_passes_its_most_dangerous_cards():
    hand = cards("x7 s9 c1 c2 c3 c4 c5 c6 c8 c9 h1 h2")
    rest = tuple(c for c in DECK if c not in hand)
    state = given(players=3).when(Deal(hand + rest, "salt", 0)).state  # seat 0: the first 12
    action = basic_bot(GAME.view(state, 0), random.Random(0))
    assert action == {"type": "pass_cards", "cards": [card("x7").to_json()]}


def test_the_basic_bot_takes_relics_for_the_bites_its_hand_will_take_but_never_the_last():
    risky = list(cards("s9 s8 x7 h7 c9"))
    assert relics_to_take(risky, players=3, held=0, left=15) >= 5
    assert relics_to_take(list(cards("c1 c2 s1")), players=3, held=0, left=15) == 0
    assert relics_to_take(risky, players=3, held=0, left=4) == 1  # the pile nearly empty
    state = given(dealt(["s9 s8 x7 c7", "c1", "c2"]), relics(starter=0)).state
    action = basic_bot(GAME.view(state, 0), random.Random(0))
    assert action["type"] == "take_relics" and action["count"] >= 3


def test_the_basic_bot_ducks_with_its_7_and_never_wins_a_trick_with_bites_it_can_avoid():
    trick = (Play(0, card("x9")),)
    assert choose_play(trick, list(cards("x7 x2")), last=False) == card("x7")
    trick = (Play(0, card("s5")), Play(1, card("s8")))
    assert choose_play(trick, list(cards("s9 s6 s2")), last=True) == card("s6")


def test_the_basic_bot_dumps_a_7_of_three_bites_or_a_high_snake_when_void():
    trick = (Play(0, card("c3")),)
    assert choose_play(trick, list(cards("h7 s9 x1")), last=False) == card("h7")
    assert choose_play(trick, list(cards("s2 s9 x1")), last=False) == card("s9")


def test_the_basic_bot_leads_low_and_harmless():
    assert choose_play((), list(cards("s1 x7 c5 h2")), last=False) == card("h2")
