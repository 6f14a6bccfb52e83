"""Sides measured in turn: on this shared machine a figure compares only with one taken beside
it, so each round runs every side once, the order reversed every other round."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

S = TypeVar("S")
R = TypeVar("R")


def alternate(
    sides: Mapping[str, S], rounds: int, run: Callable[[str, S, int], R]
) -> dict[str, list[R]]:
    """`run(name, side, round)` for every side in every round (rounds from 1); each side's
    results in round order."""
    results: dict[str, list[R]] = {name: [] for name in sides}
    for round_no in range(1, rounds + 1):
        order = list(sides) if round_no % 2 else list(reversed(list(sides)))
        for name in order:
            results[name].append(run(name, sides[name], round_no))
    return results
