"""Players: an identity above seats. A player has a name and a key (a bearer secret shown once,
stored as a hash, rotatable); with its key it acts, reads and streams at any of its tables as
its seat there, exactly as that seat's token does. Which seat is whose is in the games' events;
this service keeps the players themselves, their inbox of tables and their notices."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from events.errors import ApplicationError
from events.player_records import InboxRow, NoticeRow, PlayerRow
from events.postgres import players, ratings, store
from events.postgres.connections import Pool
from events.ratings import LeaderPosition, LeaderRow, Rating

KEY_PREFIX = "pk_"  # a player's key says what it is; a seat token never starts so on purpose


class NoSuchPlayer(ApplicationError):
    code = "not-found"


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)  # 256 bits


@dataclass(frozen=True)
class Profile:
    player: PlayerRow
    games: dict[str, int]  # finished games per game type
    ratings: dict[str, Rating]  # per game type, once rated there
    bot_level: str | None  # a bot level's rated identity: its level


class Players:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    def create(self, name: str) -> tuple[PlayerRow, str]:
        """A new player and its key (shown once: only its hash is kept)."""
        key = new_key()
        with self._pool.connection() as conn, conn.transaction():
            row = players.create(conn, uuid.uuid4(), name, key)
        return row, key

    def new_key(self, player_id: UUID) -> str:
        """A new key; the old one stops working when this commits, and what it opened ends:
        the streams of its tables (their credentials change) and its inbox stream."""
        key = new_key()
        with self._pool.connection() as conn, conn.transaction():
            for game_id in players.new_key(conn, player_id, key):
                store.notify_game(conn, game_id)
            players.wake_player(conn, player_id)
        return key

    def by_key(self, key: str) -> PlayerRow | None:
        with self._pool.connection() as conn:
            return players.by_key(conn, key)

    def profile(self, player_id: UUID) -> Profile:
        with self._pool.connection() as conn:
            row = players.by_id(conn, player_id)
            if row is None:
                raise NoSuchPlayer("no such player")
            games = players.finished_games_by_type(conn, player_id)
            rated = ratings.ratings_of(conn, player_id)
            return Profile(row, games, rated, players.bot_level(conn, player_id))

    def exists(self, player_id: UUID) -> bool:
        """Whether there is such a player to keep a seat for (a bot level's identity is none)."""
        with self._pool.connection() as conn:
            found = players.by_id(conn, player_id)
            return found is not None and players.bot_level(conn, player_id) is None

    def leaderboard(
        self, game_type: str, after: LeaderPosition | None, limit: int
    ) -> list[LeaderRow]:
        """A page of the type's non-provisional ratings, best displayed rating first."""
        with self._pool.connection() as conn:
            return ratings.leaderboard(conn, game_type, after, limit)

    def inbox(
        self,
        player_id: UUID,
        status: str | None,
        mine: bool,
        before: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[InboxRow]:
        with self._pool.connection() as conn:
            return players.inbox(conn, player_id, status, mine, before, limit)

    def notices_for_key(
        self, player_id: UUID, credential: str, after: int, limit: int
    ) -> tuple[bool, list[NoticeRow]]:
        """Whether the key hashing to `credential` is still the player's, and if so its notices
        after number `after`."""
        with self._pool.connection() as conn:
            return players.notices_for_key(conn, player_id, credential, after, limit)

    def holds_key(self, player_id: UUID, credential: str) -> bool:
        """Whether the key hashing to `credential` is still the player's (a stream ticket
        minted with a key since replaced is void)."""
        with self._pool.connection() as conn:
            return players.holds_key(conn, player_id, credential)
