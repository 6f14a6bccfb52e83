"""A rating as the API shows it (docs/players.md, Ratings)."""

from __future__ import annotations

from typing import Any

from events.ratings import Rating

DECIMALS = 3  # shown rounded; leaderboards order by the exact values


def rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.mu, DECIMALS),
        "uncertainty": round(rating.sigma, DECIMALS),
        "display": round(rating.display, DECIMALS),
        "games": rating.games,
        "provisional": rating.provisional,
    }
