"""Where matchmaking reads ratings: one small port (`Ratings`), and its implementation on the
ratings projection (`StoredRatings`, events/ratings.py keeps them). A player with no rated game
of the type is a newcomer at openskill's default; a bot level whose rating is still
provisional stands at an anchor, so that the levels are told apart from the first game on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from domain.tables.rated_tables import BOT_RATERS
from events.postgres import queue
from events.postgres.connections import Connection
from events.ratings import NEW, PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Skill:
    rating: float  # openskill's mu: the estimate of the player's strength
    uncertainty: float  # sigma: how unsure that estimate still is


NEWCOMER = Skill(NEW.mu, NEW.sigma)  # a player with no rated game of the type
# Where each bot level is expected to stand until its own rating is no longer provisional.
BOT_ANCHORS = {"random": Skill(18.0, NEW.sigma), "basic": Skill(25.0, NEW.sigma),
               "strong": Skill(30.0, NEW.sigma)}  # fmt: skip


class Ratings(Protocol):
    def of_players(
        self, conn: Connection, game_type: str, players: Sequence[UUID]
    ) -> dict[UUID, Skill]:
        """Each player's skill at the game type (a newcomer's when it has none)."""
        ...

    def of_bots(self, conn: Connection, game_type: str, levels: Sequence[str]) -> dict[str, Skill]:
        """Each bot level's skill at the game type, in the order of `levels`."""
        ...


class StoredRatings:
    """The ratings projection's rows, read in one statement per call."""

    def of_players(
        self, conn: Connection, game_type: str, players: Sequence[UUID]
    ) -> dict[UUID, Skill]:
        stored = queue.ratings(conn, game_type, players)
        return {p: player_skill(stored.get(p)) for p in players}

    def of_bots(self, conn: Connection, game_type: str, levels: Sequence[str]) -> dict[str, Skill]:
        raters = {level: UUID(BOT_RATERS[level]) for level in levels if level in BOT_RATERS}
        stored = queue.ratings(conn, game_type, list(raters.values()))
        by_level = {level: stored[rater] for level, rater in raters.items() if rater in stored}
        return {level: _level_skill(level, by_level.get(level)) for level in levels}


def player_skill(stored: queue.Stored | None) -> Skill:
    """A player's skill from its stored rating row (mu, sigma, games); a newcomer's without."""
    return NEWCOMER if stored is None else Skill(stored[0], stored[1])


def _level_skill(level: str, stored: queue.Stored | None) -> Skill:
    """A level's stored rating once it has played enough rated games, else its anchor."""
    if stored is not None and stored[2] >= PROVISIONAL_GAMES:
        return Skill(stored[0], stored[1])
    return BOT_ANCHORS.get(level, NEWCOMER)
