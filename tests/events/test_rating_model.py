"""The ratings' arithmetic (events/ratings.py) on made-up results, no database: places move
ratings the right way, ties move them alike, a rater at two seats counts one game, and a
rating stays provisional until its tenth game."""

from __future__ import annotations

import pytest

from domain.tables.rated_games import RatedResult
from events.ratings import NEW, PROVISIONAL_GAMES, Rating, rate


def test_the_winner_rises_the_last_falls_and_everyone_grows_surer():
    after = rate(RatedResult("saint_poker", ("a", "b", "c"), (1, 2, 3)), {})
    assert after["a"].mu > NEW.mu > after["c"].mu
    assert all(r.sigma < NEW.sigma and r.games == 1 for r in after.values())


def test_seats_that_tie_move_alike():
    after = rate(RatedResult("ouroboros_trick", ("a", "b", "c"), (1, 1, 3)), {})
    assert after["a"] == after["b"] and after["a"].mu > NEW.mu


def test_beating_a_stronger_player_gains_more_than_beating_an_equal_one():
    strong = Rating(35.0, 4.0, 50)
    upset = rate(RatedResult("t", ("a", "s"), (1, 2)), {"s": strong})["a"]
    expected = rate(RatedResult("t", ("a", "b"), (1, 2)), {})["a"]
    assert upset.mu - NEW.mu > expected.mu - NEW.mu


def test_a_rater_at_two_seats_takes_both_changes_as_one_game():
    alone = rate(RatedResult("t", ("x", "bot", "y", "bot"), (1, 2, 3, 4)), {})
    seats = rate(RatedResult("t", ("x", "b1", "y", "b2"), (1, 2, 3, 4)), {})
    change = (seats["b1"].mu - NEW.mu) + (seats["b2"].mu - NEW.mu)
    assert alone["bot"].mu == pytest.approx(NEW.mu + change)
    assert alone["bot"].sigma == min(seats["b1"].sigma, seats["b2"].sigma)
    assert alone["bot"].games == 1


def test_a_rating_is_provisional_until_its_tenth_game():
    assert Rating(30.0, 3.0, PROVISIONAL_GAMES - 1).provisional
    assert not Rating(30.0, 3.0, PROVISIONAL_GAMES).provisional
    assert Rating(30.0, 3.0).display == 21.0
