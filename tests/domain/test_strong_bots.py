"""The strong bots play legal whole games, and decide from their seat's view alone: two tables
that differ only in cards the seat cannot see get the very same decision."""

from __future__ import annotations

import random

import pytest

from domain.budget import Iterations
from domain.games import get_game_type
from domain.selfplay import play_out
from domain.table_view import view_table
from tests.domain.strong_support import decision_points, hidden_shuffled, quick

STRONG_GAMES = [
    ("trick_and_snipers", 4),
    ("st_patrick", 3),
    ("ouroboros_trick", 4),
    ("saint_poker", 3),
]


@pytest.mark.parametrize(("game_id", "players"), STRONG_GAMES)
def test_strong_bots_play_whole_games_legally_beside_the_other_levels(game_id, players):
    game = quick(get_game_type(game_id), iterations=12)
    for seed, levels in enumerate(
        (["strong"] * players, ["strong", "basic", "random", "basic", "basic"][:players])
    ):
        # self-play raises on any bot failure: an illegal action is never papered over
        table, _ = play_out(game, levels, random.Random(seed))
        assert table.status == "finished"


@pytest.mark.parametrize(("game_id", "players"), STRONG_GAMES)
def test_the_strong_bot_decides_the_same_whatever_the_cards_it_cannot_see(game_id, players):
    game, strong = get_game_type(game_id), get_game_type(game_id).bots["strong"]
    points = [
        point for seed in range(11, 15) for point in decision_points(game, players, seed, every=3)
    ][:12]
    for checked, (table, seat) in enumerate(points):
        other = hidden_shuffled(table, seat, random.Random(checked))
        assert other.game != table.game  # the hidden cards really moved
        view = view_table(table, seat)
        assert view_table(other, seat) == view
        mine = strong(view, random.Random(5), Iterations(25))
        assert strong(view_table(other, seat), random.Random(5), Iterations(25)) == mine
    assert len(points) == 12
