"""lineups's core on a handful of games: the lineup's levels take every order round
the table in turn, each game's places are the game's own ranking, a pair's share counts a
shared place as half, and the levels are rated in game order as the server rates players."""

from __future__ import annotations

from itertools import permutations

from bench.bot_strength.games import Job
from bench.bot_strength.lineups import Record, above_share, play_game, ratings, seating


def test_the_levels_take_every_order_round_the_table_in_turn():
    orders = {seating(("strong", "basic", "random"), number) for number in range(6)}
    assert orders == set(permutations(("strong", "basic", "random")))


def test_a_game_seats_the_lineup_and_ranks_every_seat():
    record = play_game(Job("trick_and_snipers", ("basic", "random", "random"), 4, seed=2))
    assert sorted(record.levels) == ["basic", "random", "random"]
    assert len(record.ranks) == 3 and min(record.ranks) == 1
    again = play_game(Job("trick_and_snipers", ("basic", "random", "random"), 4, seed=2))
    assert (again.levels, again.ranks) == (record.levels, record.ranks)  # a seed, the same game


def test_a_shared_place_counts_half_in_a_pairs_share():
    records = [
        Record("st_patrick", 0, ("a", "b", "c"), (1, 2, 3), {}),
        Record("st_patrick", 1, ("b", "a", "c"), (1, 1, 3), {}),
    ]
    share, low, high = above_share(records, "a", "b")
    assert share == 0.75
    assert low < share < high


def test_a_level_that_always_finishes_first_is_rated_highest():
    # Given games in every seating where x finishes first, y second and z last
    orders = [order for order in permutations(("x", "y", "z")) for _ in range(3)]
    records = [
        Record("st_patrick", n, order, tuple(1 + "xyz".index(level) for level in order), {})
        for n, order in enumerate(orders)
    ]
    rated = ratings(records)
    assert rated["x"].display > rated["y"].display > rated["z"].display
    assert rated["x"].games == len(records)
