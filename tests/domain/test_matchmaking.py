"""Matchmaking rules in the pure domain: the window that widens with the wait, grouping waiting
players into tables of close ratings, bots for those who asked, and the bot level that fits."""

from __future__ import annotations

import random

import pytest

from domain.matchmaking.bot_levels import fitting_level
from domain.matchmaking.grouping import Seeker, fits, matches
from domain.matchmaking.window import WINDOW_MOST, WINDOW_START, half_width, window

LEVELS = {"random": 20.0, "basic": 25.0, "strong": 30.0}


def seeker(
    player: str,
    rating: float = 25.0,
    waited: float = 0.0,
    sizes: tuple[int, ...] = (3, 4),
    bots_after: float | None = None,
    game_type: str = "st_patrick",
    rated: bool = True,
) -> Seeker:
    return Seeker(player, game_type, rated, sizes, rating, waited, bots_after)


def seated(found) -> list[set[str]]:
    return [{s.player for s in match.players} for match in found]


def test_the_window_starts_narrow_and_widens_with_the_wait_up_to_a_bound():
    assert half_width(0) == WINDOW_START
    assert half_width(0) < half_width(5) < half_width(20)
    assert half_width(10_000) == WINDOW_MOST
    assert window(25.0, 0) == (25.0 - WINDOW_START, 25.0 + WINDOW_START)


def test_players_of_close_ratings_are_seated_together_at_the_largest_size_they_accept():
    # Given four newcomers of about the same rating, who all accept 3 or 4
    waiting = [seeker(p, 25 + i * 0.1) for i, p in enumerate("abcd")]
    # When the matcher looks
    found = matches(waiting)
    # Then one table of four seats them all, with no bot
    assert seated(found) == [{"a", "b", "c", "d"}]
    assert found[0].size == 4 and found[0].bots == 0


def test_players_far_apart_in_rating_wait_until_their_windows_cover_the_gap():
    # Given three strong and three weak players who just joined
    strong = [seeker(f"s{i}", 35.0) for i in range(2)]
    weak = [seeker(f"w{i}", 15.0) for i in range(2)]
    # Then no table mixes them yet (two of each are too few for a table of three)
    assert matches(strong + weak) == []
    # But once one of them has waited long enough for its window to cover the gap, it is seated
    patient = seeker("s9", 35.0, waited=20.0)
    found = matches([*strong, *weak, patient])
    assert len(found) == 1 and "s9" in seated(found)[0]
    assert fits(found[0].players)


def test_the_longest_waiting_player_is_seated_first_with_the_players_nearest_its_rating():
    # Given an old waiter at 30 and five newcomers around it, three nearer than the others
    waiting = [seeker("old", 30.0, waited=5.0, sizes=(4,))] + [
        seeker(p, r, sizes=(4,)) for p, r in [("n1", 29.5), ("n2", 30.4), ("n3", 31.0),
                                             ("f1", 26.0), ("f2", 34.5)]
    ]  # fmt: skip
    found = matches(waiting)
    assert seated(found) == [{"old", "n1", "n2", "n3"}]


def test_no_player_is_seated_twice_however_many_tables_are_made():
    rng = random.Random(7)
    waiting = [
        seeker(f"p{i}", rng.gauss(25, 6), rng.uniform(0, 30), rng.choice([(3,), (4,), (3, 4)]))
        for i in range(400)
    ]
    found = matches(waiting)
    everyone = [s.player for match in found for s in match.players]
    assert len(everyone) == len(set(everyone)) > 300
    for match in found:
        assert len(match.players) == match.size and fits(match.players)
        assert all(match.size in s.sizes for s in match.players)


def test_pools_never_mix_game_types_or_rated_and_casual_players():
    waiting = [
        seeker("a", game_type="st_patrick"),
        seeker("b", game_type="st_patrick"),
        seeker("c", game_type="saint_poker", sizes=(3,)),
        seeker("d", rated=False),
    ]
    assert matches(waiting) == []


def test_bots_fill_the_seats_of_a_player_who_asked_once_it_waited_that_long():
    # Given a lone player who asked for bots after 30 s
    assert matches([seeker("alone", waited=29.0, bots_after=30)]) == []
    # When 30 s have passed
    found = matches([seeker("alone", waited=30.0, bots_after=30)])
    # Then it gets the smallest table it accepts, the other seats for bots
    assert seated(found) == [{"alone"}] and found[0].size == 3 and found[0].bots == 2


def test_bots_fill_only_beside_players_who_asked_for_them_and_waited_as_long():
    # Given two players ready for bots, and too far from them for a table of humans alone (each
    # window reaches 14 points), one who never wants bots and one not ready for them yet
    waiting = [
        seeker("ready1", waited=12, bots_after=10, sizes=(3, 4)),
        seeker("ready2", waited=11, bots_after=5, sizes=(3, 4)),
        seeker("never", rating=40.0, waited=1),
        seeker("later", rating=10.0, waited=5, bots_after=60),
    ]
    found = matches(waiting)
    # Then one table of the two ready players and a bot
    assert seated(found) == [{"ready1", "ready2"}]
    assert found[0].size == 3 and found[0].bots == 1


def test_a_full_table_of_humans_is_preferred_to_bots():
    waiting = [seeker(p, waited=60, bots_after=0) for p in "abc"]
    found = matches(waiting)
    assert [m.bots for m in found] == [0] and seated(found) == [{"a", "b", "c"}]


@pytest.mark.parametrize(
    ("ratings", "level"),
    [([14.0, 18.0], "random"), ([25.0], "basic"), ([31.0, 36.0], "strong"), ([22.5], "random")],
)
def test_the_fitting_bot_level_is_the_nearest_to_the_humans_mean_rating(ratings, level):
    assert fitting_level(ratings, LEVELS) == level
