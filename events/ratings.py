"""Ratings: one per player per game type, by Weng-Lin's Bayesian approximation with the
Plackett-Luce model (openskill), made for free-for-all games of N players with ties.

A rating is a belief about a player's skill: `mu` (the estimate) and `sigma` (its
uncertainty). Everyone starts at mu 25, sigma 25/3; each rated game moves its raters by how
their places compare with what their ratings expected. The displayed rating is mu - 3 sigma,
a cautious estimate (the player is better than that with about 99.7% certainty): a newcomer
shows 0 and climbs as games make the estimate surer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from openskill.models import PlackettLuce

from domain.tables.rated_games import RatedResult

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
PROVISIONAL_GAMES = 10
"""A rating is provisional (on no leaderboard) until this many rated games of its type."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def display(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True, slots=True)
class LeaderPosition:
    """Where a leaderboard page ended: its last row's display, rated games, player, rank and
    position (a board orders by display, then games, then player: see LEADERBOARD_ORDER)."""

    display: float
    games: int
    player_id: UUID
    rank: int
    position: int  # 1 for the first row of the board


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int  # 1 + the players above: equal displays share a rank
    position: int  # 1 + the rows listed before it
    player_id: UUID
    name: str
    bot_level: str | None
    mu: float
    sigma: float
    display: float
    games: int

    @property
    def end(self) -> LeaderPosition:
        """The position a page ending with this row ended at."""
        return LeaderPosition(self.display, self.games, self.player_id, self.rank, self.position)


def rate(result: RatedResult, current: Mapping[str, Rating]) -> dict[str, Rating]:
    """Every rater's rating after the game, from `current` (a rater missing there is new).

    A rater at several seats (a bot level twice at one table) is rated as if each seat were a
    player of its rating: it gets the sum of its seats' changes of mu, the smallest of their
    sigmas, and one game more."""
    before = [current.get(rater, NEW) for rater in result.raters]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in result.ranks])
    rated: dict[str, Rating] = {}
    for rater, old, (new,) in zip(result.raters, before, after, strict=True):
        seen = rated.get(rater)
        if seen is None:
            rated[rater] = Rating(new.mu, new.sigma, old.games + 1)
        else:
            rated[rater] = Rating(seen.mu + new.mu - old.mu, min(seen.sigma, new.sigma), seen.games)
    return rated
