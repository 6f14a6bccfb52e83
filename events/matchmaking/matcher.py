"""The matcher: forms tables from the players waiting in the queue and creates them through the
command side, like any client's table. Each worker process runs one about once a second
(workers/matcher.py).

A pass reads the queue (no lock), asks domain/matchmaking which tables to make, and creates
each in its own transaction, which first takes its players' entries out of the queue, all or
none, skipping any entry another transaction holds (events/postgres/queue.py). So:
- a player is seated once: its entry is deleted by the transaction that seats it;
- a player who left is never seated: its entry is gone, and the table is not made;
- two matchers never double-book a player: the second finds the entry locked or gone and
  gives that table up, its other players still waiting for the next pass.
Each pass takes its tables in a random order, so matchers running at once mostly take
different ones rather than queueing behind each other on the same.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.games import get_game_type
from domain.matchmaking.bot_levels import fitting_level
from domain.matchmaking.grouping import Match, Seeker, matches
from domain.tables import table as tables
from domain.tables.rated_tables import RATED
from events.commands import Commands
from events.errors import QueueMoved
from events.matchmaking.entries import QueueEntry
from events.matchmaking.ratings import Ratings
from events.postgres import queue
from events.postgres.connections import Connection, Pool

PASS_LIMIT = 20_000  # entries one pass looks at, longest waiting first
SEATING_THREADS = 4  # tables created at once by a pass (each holds a pool connection)


class Matcher:
    def __init__(
        self, pool: Pool, commands: Commands, ratings: Ratings, rng: random.Random
    ) -> None:
        self._pool = pool
        self._commands = commands
        self._ratings = ratings
        self._rng = rng

    def run_once(self) -> list[UUID]:
        """One pass: every table that can be made now; the games created. The tables are
        created SEATING_THREADS at a time: each is a transaction of its own, and most of its
        time is spent waiting for the database (its commit above all)."""
        proposed = self.propose()
        if len(proposed) <= 1:
            return [game for match in proposed if (game := self.seat(match)) is not None]
        with ThreadPoolExecutor(min(SEATING_THREADS, len(proposed))) as seating:
            return [game for game in seating.map(self.seat, proposed) if game is not None]

    def propose(self) -> list[Proposal]:
        """The tables the queue allows now, in a random order."""
        with self._pool.connection() as conn:
            entries = {str(e.player_id): e for e in queue.waiting(conn, PASS_LIMIT)}
            found = matches(self._seekers(conn, list(entries.values())))
            levels = {m.game_type: self._level_ratings(conn, m.game_type) for m in found if m.bots}
        proposed = [
            Proposal(match, {s.player: entries[s.player] for s in match.players},
                     _level(match, levels[match.game_type]) if match.bots else None)
            for match in found
        ]  # fmt: skip
        self._rng.shuffle(proposed)
        return proposed

    def seat(self, proposal: Proposal) -> UUID | None:
        """Creates the table, its players' entries leaving the queue with it; None when one of
        them left or is being seated elsewhere (the others wait on)."""
        match = proposal.match
        seats = [
            *(tables.SeatInfo(tables.HUMAN, e.name, player=p) for p, e in proposal.entries.items()),
            *[tables.SeatInfo(tables.BOT, None, proposal.bot_level)] * match.bots,
        ]
        self._rng.shuffle(seats)  # the seat order is no one's choice
        entries = {
            seat: proposal.entries[info.player].id
            for seat, info in enumerate(seats)
            if info.player is not None
        }
        game_id = uuid.uuid4()
        try:
            self._commands.create_match(
                game_id,
                get_game_type(match.game_type),
                tables.CreateTable(tuple(seats), options=match_options(match)),
                entries,
                creator=f"player-{match.players[0].player}",  # its longest waiting player
            )
        except QueueMoved:
            return None
        return game_id

    def _seekers(self, conn: Connection, entries: Sequence[QueueEntry]) -> list[Seeker]:
        by_type: dict[str, list[QueueEntry]] = {}
        for entry in entries:
            by_type.setdefault(entry.game_type, []).append(entry)
        seekers = []
        for game_type, waiting in by_type.items():
            skills = self._ratings.of_players(conn, game_type, [e.player_id for e in waiting])
            seekers += [_seeker(e, skills[e.player_id].rating) for e in waiting]
        return seekers

    def _level_ratings(self, conn: Connection, game_type: str) -> dict[str, float]:
        levels = get_game_type(game_type).bot_levels
        return {k: v.rating for k, v in self._ratings.of_bots(conn, game_type, levels).items()}


@dataclass(frozen=True)
class Proposal:
    """A table to create: the match, its players' queue entries, the level of its bots."""

    match: Match
    entries: dict[str, QueueEntry]  # player id -> its entry
    bot_level: str | None


def _level(match: Match, level_ratings: dict[str, float]) -> str:
    return fitting_level([seeker.rating for seeker in match.players], level_ratings)


def match_options(match: Match) -> dict[str, Any]:
    """The options of a matched table: rated as its players asked (its pool's), else the
    game's defaults."""
    return {RATED: True} if match.rated else {}


def _seeker(entry: QueueEntry, rating: float) -> Seeker:
    return Seeker(
        player=str(entry.player_id),
        game_type=entry.game_type,
        rated=entry.rated,
        sizes=entry.sizes,
        rating=rating,
        waited=entry.waited,
        bots_after=entry.bots_after_seconds,
    )
