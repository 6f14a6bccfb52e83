"""Perfect-information Monte Carlo over determinizations, flat at the root.

Each world is one way the hidden cards could lie, consistent with the seat's view. Every
candidate action still in the running is played out in the same world (common random numbers:
the comparison between actions does not suffer from how lucky the world was), then a new world
is drawn. Every few rounds the worse half of the candidates is dropped (successive halving), so
the budget goes to the close calls. The budget is asked once per playout.

The candidates come in the caller's order, and the first one is the caller's default (the
basic bot's choice): it wins ties and stands when the budget allows no full round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from domain.kit.budget import Budget
from domain.kit.game_type import Rng

A = TypeVar("A")
W = TypeVar("W")

HALVING_ROUNDS = (4, 8, 16, 32, 64)  # after these many worlds, keep the better half


def choose(
    actions: Sequence[A],
    sample: Callable[[Rng], W],
    value: Callable[[W, A], float],
    rng: Rng,
    budget: Budget,
    halving: Sequence[int] = HALVING_ROUNDS,
) -> A:
    """The action with the best mean value over the worlds drawn while the budget lasts; the
    worse half is dropped after each number of worlds in `halving`."""
    if len(actions) == 1:
        return actions[0]
    totals = [0.0] * len(actions)
    counts = [0] * len(actions)
    alive = list(range(len(actions)))
    rounds = 0
    while True:
        world = sample(rng)
        for index in alive:
            if budget.exhausted():
                return actions[_best(alive, totals, counts, rounds)]
            totals[index] += value(world, actions[index])
            counts[index] += 1
        rounds += 1
        if rounds in halving and len(alive) > 2:
            ranked = sorted(alive, key=lambda i: (-totals[i] / counts[i], i))
            alive = sorted(ranked[: max(2, (len(alive) + 1) // 2)])


def _best(alive: list[int], totals: list[float], counts: list[int], rounds: int) -> int:
    """The best mean among the candidates seen in every complete round (the default first)."""
    full = [i for i in alive if counts[i] >= rounds and counts[i] > 0]
    if not full:
        return 0 if 0 in alive else alive[0]
    return max(full, key=lambda i: (totals[i] / counts[i], -i))
