"""The bot level that fits a table: the one whose own rating is nearest the humans' mean, so a
strong player waiting alone meets strong bots and a beginner meets random ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def fitting_level(human_ratings: Sequence[float], level_ratings: Mapping[str, float]) -> str:
    """The level (a key of `level_ratings`, in the game's order) nearest the humans' mean
    rating; on a tie, the one listed first."""
    if not human_ratings or not level_ratings:
        raise ValueError("a fitting level needs humans and levels")
    mean = sum(human_ratings) / len(human_ratings)
    return min(level_ratings, key=lambda level: abs(level_ratings[level] - mean))
