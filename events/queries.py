"""The read side: games as callers see them, event pages, replays, lists, logs for audits and
exports, and who a token is. Reads never lock and never write; they share the write side's
cache of folded tables (events/postgres/repository.py), which only ever holds committed states."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple, TypeVar
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.tables.table import Table
from events.audit.report import audit_report
from events.audit.signing import key_id
from events.errors import GameNotFound
from events.folding import CODE_VERSION, fold_events
from events.postgres import audit_cache, feed_reads, seat_tokens, store, turn_timers
from events.postgres.audit_reads import GameLog, read_game_log
from events.postgres.connections import Pool
from events.postgres.repository import Repository
from events.records import StoredEvent, StreamInfo

T = TypeVar("T")


def run_in_place(work: Callable[..., T], *args: Any) -> T:
    return work(*args)


class GameSince(NamedTuple):
    """What a live stream's feed reads: the events after a version, the game, its version,
    and the hashes of the seat tokens that may still watch it as a seat."""

    events: list[StoredEvent]
    table: Table
    version: int
    credentials: frozenset[str]


class ShownGame(NamedTuple):
    """The game as GET /games/<id> shows it: the table at its latest version, the seat the
    caller's token acts for (None: none), and when the turn of each seat a timed table waits
    for runs out."""

    table: Table
    version: int
    seat: int | None
    deadlines: dict[int, datetime]


class Queries:
    def __init__(
        self, pool: Pool, repository: Repository, offload: Callable[..., Any] = run_in_place
    ) -> None:
        self._pool = pool
        self._repository = repository
        # Where CPU-heavy pure work (re-deciding a log) runs: the API keeps it off its event
        # loop (api/http/cpu_work.py); anything else runs it in place.
        self._offload = offload

    def game(self, game_id: UUID) -> tuple[Table, int]:
        """The table at its latest version (GameNotFound if there is no such game)."""
        with self._pool.connection() as conn:
            return self._repository.load(conn, game_id)

    def game_as(self, game_id: UUID, token: str | None) -> tuple[Table, int, int | None]:
        """The table at its latest version and the seat `token` acts for (None: no token, or it
        acts for no seat). One statement reads the version and the seat; when this process's
        cache holds that version, as it does for a game it just wrote, that is all."""
        with self._pool.connection() as conn:
            version, seat = seat_tokens.version_and_seat(conn, game_id, token)
            table, version = self._repository.load(conn, game_id, current_version=version)
        return table, version, seat

    def shown_game(
        self, game_id: UUID, token: str | None, held: Callable[[int], bool] = lambda _: False
    ) -> ShownGame:
        """The game as `game_as` finds it, with its turns' deadlines: at a timed table in play,
        a second statement on the same connection reads them; else that is all. `held` says
        whether the caller holds the game at a version already (If-None-Match): at such a
        version nothing will be shown, so no deadline is read."""
        with self._pool.connection() as conn:
            version, seat = seat_tokens.version_and_seat(conn, game_id, token)
            table, version = self._repository.load(conn, game_id, current_version=version)
            timed = _on_the_clock(table) and not held(version)
            deadlines = turn_timers.of_game(conn, game_id) if timed else {}
        return ShownGame(table, version, seat, deadlines)

    def events(self, game_id: UUID, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        with self._pool.connection() as conn:
            return store.read_stream(conn, game_id, after=after, limit=limit)

    def events_then_game(self, game_id: UUID, after: int, limit: int) -> GameSince:
        """Events after `after`, and the credentials that may watch the game as a seat, then
        the game: read in that order, the game is at least as new as the events (once it is
        over every event is public). When the read reached the head and the cached table is no
        older than `after`, the game is the cached table with those events folded in: one
        statement, where a stream process's feed made two per commit."""
        with self._pool.connection() as conn:
            stored, credentials = feed_reads.events_and_credentials(conn, game_id, after, limit)
            reached_head = len(stored) < limit
            if reached_head and (known := self._repository.fold_read(game_id, after, stored)):
                return GameSince(stored, *known, credentials)
            table, version = self._repository.load(conn, game_id)
        return GameSince(stored, table, version, credentials)

    def table_at(self, game_id: UUID, version: int) -> Table:
        """The table as it stood after event `version` (folded from the start)."""
        stored = self.events(game_id, after=0, limit=version)
        if len(stored) < version:
            raise GameNotFound(game_id)
        return fold_events(None, stored)

    def games(
        self,
        status: str | None,
        game_type: str | None,
        before: tuple[datetime, UUID] | None,
        limit: int,
    ) -> list[StreamInfo]:
        with self._pool.connection() as conn:
            return store.list_streams(conn, status, game_type, before, limit)

    def log(self, game_id: UUID) -> GameLog:
        """Everything an audit or an export reads, as of one moment."""
        with self._pool.connection() as conn:
            return read_game_log(conn, game_id)

    def kept_audit(self, game_id: UUID, key: Ed25519PublicKey) -> dict[str, Any] | None:
        """A finished game's audit report as computed before, if it was (by this code and
        against this key, at the game's version); None otherwise."""
        with self._pool.connection() as conn:
            return audit_cache.cached(conn, game_id, CODE_VERSION, key_id(key))

    def audit(self, game_id: UUID, key: Ed25519PublicKey) -> dict[str, Any]:
        """The audit report, re-decided from the log now. A finished game whose every check
        passed has its report kept: it can no longer change, and `kept_audit` answers it while
        the game's head is the same. A failing one is never kept: the next audit looks again."""
        report: dict[str, Any] = self._offload(audit_report, str(game_id), self.log(game_id), key)
        if report["status"] == "finished" and audit_cache.all_passed(report):
            with self._pool.connection() as conn:
                audit_cache.keep(conn, game_id, CODE_VERSION, key_id(key), report)
        return report

    def deadlines(self, game_id: UUID, table: Table) -> dict[int, datetime]:
        """When the turn of each seat a timed game waits for runs out, now; `table` is the game
        as the caller shows it (none are read unless it is timed and in play)."""
        if not _on_the_clock(table):
            return {}
        with self._pool.connection() as conn:
            return turn_timers.of_game(conn, game_id)

    def origin(self, game_id: UUID) -> tuple[str, datetime]:
        """Who created the game (its creator's key) and when (GameNotFound if no game)."""
        with self._pool.connection() as conn:
            creator, created_at = store.stream_row(conn, game_id, "s.creator, s.created_at")
        return creator, created_at

    def exists(self, game_id: UUID) -> bool:
        with self._pool.connection() as conn:
            return store.stream_version(conn, game_id) is not None

    def seat_at(self, game_id: UUID, token: str | None) -> int | None:
        """The seat `token` acts for at the game (None: no token, or it acts for no seat), in
        one statement that also finds the game (GameNotFound if there is none), reading no
        table: what a stream's handshake needs, when 10,000 of them arrive together."""
        with self._pool.connection() as conn:
            return seat_tokens.version_and_seat(conn, game_id, token)[1]

    def acts_for(self, game_id: UUID, seat: int, credential: str) -> bool:
        """Whether the seat token whose hash is `credential` is still the seat's."""
        with self._pool.connection() as conn:
            return seat_tokens.acts_for(conn, game_id, seat, credential)

    def seat_for(self, game_id: UUID, token: str) -> int | None:
        """The seat a token acts for at this game now, None if it acts for none."""
        with self._pool.connection() as conn:
            return seat_tokens.seat_for(conn, game_id, token)


def _on_the_clock(table: Table) -> bool:
    """Whether the game may have turn timers: only a timed table in play has any, so no other
    reads them."""
    return table.options.get("turn_seconds") is not None and table.status == "active"
