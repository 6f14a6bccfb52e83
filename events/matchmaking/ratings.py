"""Where matchmaking reads ratings: one small port (`Ratings`), so that the ratings projection
plugs in with one change. `Unrated` stands in until ratings are kept: every player a newcomer
at openskill's default, the bot levels at where each is expected to stand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

import psycopg


@dataclass(frozen=True, slots=True)
class Skill:
    rating: float  # openskill's mu: the estimate of the player's strength
    uncertainty: float  # sigma: how unsure that estimate still is


NEWCOMER = Skill(25.0, 25.0 / 3)  # openskill's default for a player with no rated game
# Until the bot levels have rated games of their own: a guess of where each stands, so that
# the level that fits a table is told apart from the first game on.
BOT_ANCHORS = {"random": Skill(18.0, 25.0 / 3), "basic": Skill(25.0, 25.0 / 3),
               "strong": Skill(30.0, 25.0 / 3)}  # fmt: skip


class Ratings(Protocol):
    def of_players(
        self, conn: psycopg.Connection, game_type: str, players: Sequence[UUID]
    ) -> dict[UUID, Skill]:
        """Each player's skill at the game type (a newcomer's when it has none)."""
        ...

    def of_bots(
        self, conn: psycopg.Connection, game_type: str, levels: Sequence[str]
    ) -> dict[str, Skill]:
        """Each bot level's skill at the game type, in the order of `levels`."""
        ...


class Unrated:
    """No ratings kept: every player a newcomer, the bot levels at their anchors."""

    def of_players(
        self, conn: psycopg.Connection, game_type: str, players: Sequence[UUID]
    ) -> dict[UUID, Skill]:
        return {player: NEWCOMER for player in players}

    def of_bots(
        self, conn: psycopg.Connection, game_type: str, levels: Sequence[str]
    ) -> dict[str, Skill]:
        return {level: BOT_ANCHORS.get(level, NEWCOMER) for level in levels}
