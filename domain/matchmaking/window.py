"""How far apart in rating players may be to share a table. Each waiting player has a window
around its rating, narrow at first (a close game) and wider the longer it waits (a game at
all), so nobody waits for ever for an opponent of exactly its strength.

Ratings are on openskill's scale: a newcomer is mu 25 with an uncertainty (sigma) of 25/3, and
most players end up within 15-35."""

from __future__ import annotations

WINDOW_START = 2.0  # rating points either side of the player's own, on joining
WINDOW_GROWTH = 1.0  # points more either side for each second waited
WINDOW_MOST = 50.0  # wide enough for any two players: widening further changes nothing


def half_width(waited: float) -> float:
    """The window's half-width after `waited` seconds in the queue."""
    return min(WINDOW_MOST, WINDOW_START + WINDOW_GROWTH * max(0.0, waited))


def window(rating: float, waited: float) -> tuple[float, float]:
    """The ratings a player waiting `waited` seconds accepts at its table, lowest and highest."""
    width = half_width(waited)
    return rating - width, rating + width
