"""The flat search's schedule and the Trick & Snipers playout value: a move that starts unlucky
survives until enough worlds have been seen, and a lost playout is worth less the further
behind it ends."""

from __future__ import annotations

import random

from domain.games.trick_and_snipers.simulator import Sim
from domain.games.trick_and_snipers.strong import playout_value
from domain.kit.budget import Iterations
from domain.search import flat


def _late_bloomer(halving: tuple[int, ...]) -> int:
    """Move 1 loses its first 4 worlds and wins every later one; the others score 0.5."""
    drawn = iter(range(10_000))

    def value(world: int, action: int) -> float:
        if action == 1:
            return 0.0 if world < 4 else 1.0
        return 0.5

    return flat.choose(
        [0, 1, 2, 3], lambda rng: next(drawn), value, random.Random(0), Iterations(4 * 40), halving
    )


def test_a_move_unlucky_in_its_first_worlds_is_kept_until_the_first_halving():
    assert _late_bloomer((20, 40, 80, 160)) == 1


def test_halving_after_four_worlds_drops_a_move_that_started_unlucky():
    assert _late_bloomer(flat.HALVING_ROUNDS) != 1


def _ended(points: list[int]) -> Sim:
    return Sim(3, [[], [], []], 0, points, [4, 4, 4], [])


def test_a_lost_playout_is_worth_less_the_further_behind_it_ends():
    near_miss = playout_value(_ended([1, 2, 0]), (1,), me=0)
    rout = playout_value(_ended([0, 2, 1]), (1,), me=0)
    won = playout_value(_ended([2, 1, 0]), (0,), me=0)
    assert rout < near_miss < 0.5 < won


def test_a_shared_victory_is_worth_a_share():
    shared = playout_value(_ended([1, 1, 0]), (0, 1), me=0)
    assert 0.45 < shared < 0.55
