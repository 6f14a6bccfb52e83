"""What the strong St Patrick bot's playouts assume and aim for: other seats that may take relics
at random (so a curse can come), and a value that ranks the seat against each other seat as
ratings do (G7, S9)."""

from __future__ import annotations

import pytest

from domain.games.st_patrick.simulator import Round, shown
from domain.games.st_patrick.state import DECK


def dealt_round(wild: frozenset[int] = frozenset(), draws: tuple[float, ...] = ()) -> Round:
    """Three seats dealt 12 cards each in deck order, the relic phase begun."""
    hands = [shown(list(DECK[12 * s : 12 * (s + 1)])) for s in range(3)]
    world = Round(3, hands, [20, 20, 20], [0, 0, 0], wild=wild, draws=draws)
    world.start_relics()
    return world


def test_basic_seats_never_empty_the_middle_so_their_round_has_no_curse():
    world = dealt_round()
    world.finish()
    assert world.curses == 0


def test_a_wild_seat_takes_what_its_draws_say_and_may_empty_the_middle_cursing_every_holder():
    first = dealt_round().relic_turn
    # A draw of 0.5 or more takes; the next draw, 0.999, takes all that is left.
    world = dealt_round(wild=frozenset({first}), draws=(0.9, 0.999))
    world.finish()
    assert world.curses >= 1
    assert world.life[first] <= 20 - 15 + 1  # cursed for the 15 relics (S5), at most +1 (S6)


def test_a_world_and_its_copy_use_the_same_draws_from_the_same_point():
    world = dealt_round(wild=frozenset({0, 1, 2}), draws=(0.7, 0.2, 0.4, 0.9, 0.1))
    copy = world.copy()
    world.finish()
    copy.finish()
    assert (world.life, world.relics, world.curses) == (copy.life, copy.relics, copy.curses)


def over(life: list[int], relics: list[int], snakes: list[int]) -> Round:
    world = Round(3, [[], [], []], life, relics)
    world.snakes = snakes
    return world


def test_at_the_game_end_the_value_is_the_share_of_other_seats_finished_above():
    world = over([5, 0, 12], [0, 0, 0], [0, 0, 0])
    assert [world.value(seat) for seat in range(3)] == [0.5, 0.0, 1.0]


def test_at_the_game_end_equal_lives_are_told_apart_by_relics_then_snakes_else_shared():
    by_relics = over([4, 4, 0], [2, 1, 0], [0, 0, 0])
    assert by_relics.value(0) == 1.0 and by_relics.value(1) == 0.5
    shared = over([4, 4, 0], [1, 1, 0], [3, 3, 0])
    assert shared.value(0) == shared.value(1) == 0.75


def test_before_the_end_a_seat_ahead_in_life_values_more_than_one_behind():
    ahead, level, behind = (Round(3, [[], [], []], life, [0, 0, 0]).value(0)
                            for life in ([16, 10, 10], [10, 10, 10], [4, 10, 10]))  # fmt: skip
    assert ahead > level == 0.5 > behind
    assert ahead + behind == pytest.approx(1.0)
