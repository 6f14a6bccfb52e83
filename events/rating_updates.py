"""The ratings as a projection of the event log: a rated game's end taken into its raters'
ratings once, on the workers (outbox work `ratings`, queued in the commit that ends the game),
and every rating recomputed from the events (`python -m workers.ratings --rebuild`).

Ratings depend on the order games are taken in. A game is numbered (rated_games.seq) while
its raters' rows are locked, so any two games that share a rater are numbered in the order
they were taken; the rebuild takes the games again in that order (and games never taken
after them, in the log's order), so it reproduces the incremental ratings exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from uuid import UUID

from domain.games import get_game_type
from domain.kit.codec import from_json
from domain.tables.rated_games import RatedResult, rated_result
from domain.tables.table import TableCreated
from events.folding import decode
from events.outbox import RateGame
from events.postgres import outbox, ratings
from events.postgres.connections import Connection, Pool
from events.ratings import NEW, Rating, rate
from events.records import StoredEvent

Progress = Callable[[int, int], None]  # (games read, games in all)
REBUILD_BATCH = 500  # games whose events one read brings


class RatingUpdates:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    def take(self, game_id: UUID, version: int) -> str:
        """Takes the game's end into its raters' ratings, once: "done"; "already" if it was
        taken before (a redelivered job changes nothing); "unrated" for a game that is not a
        rated one that ended. The outbox work is marked done in the same commit."""
        with self._pool.connection() as conn, conn.transaction():
            outcome = _take(conn, game_id)
            outbox.mark_done(conn, game_id, version, RateGame())
        return outcome

    def rebuild(self, progress: Progress = lambda done, total: None) -> int:
        """Recomputes every rating from the events; the number of rated games taken. Holds
        the ratings' writers back meanwhile (readers go on reading the ratings as they were);
        work that waited finds its game taken already, or takes a game that ended after."""
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
            order = ratings.rebuild_order(conn)
            rebuilt, taken = _rate_in_order(conn, order, progress)
            ratings.replace_all(conn, rebuilt)
            ratings.record_all_rated(conn, taken)
        return len(taken)


def _take(conn: Connection, game_id: UUID) -> str:
    if ratings.is_rated(conn, game_id):
        return "already"
    result = result_of(ratings.rating_events(conn, [game_id]))
    if result is None:
        return "unrated"
    current = ratings.lock_ratings(conn, result.game_type, result.raters)
    if not ratings.record_rated(conn, game_id, result.game_type):
        return "already"  # taken meanwhile, by another worker or the rebuild
    ratings.save(conn, result.game_type, rate(result, current))
    return "done"


def result_of(stored: Sequence[StoredEvent]) -> RatedResult | None:
    """The rated result of one game's rating events (TableCreated first)."""
    if not stored or stored[0].type != "TableCreated":
        return None
    created = from_json(TableCreated, stored[0].data)
    game_type = get_game_type(created.game_type)
    return rated_result(game_type, [created, *(decode(game_type.id, e) for e in stored[1:])])


def _rate_in_order(
    conn: Connection, order: list[UUID], progress: Progress
) -> tuple[dict[tuple[str, str], Rating], list[tuple[UUID, str]]]:
    """Every (game type, rater)'s rating after taking the games in `order`, and the games
    taken (game, type)."""
    table: dict[tuple[str, str], Rating] = {}
    taken: list[tuple[UUID, str]] = []
    done = 0
    for start in range(0, len(order), REBUILD_BATCH):
        chunk = order[start : start + REBUILD_BATCH]
        by_game: dict[UUID, list[StoredEvent]] = defaultdict(list)
        for event in ratings.rating_events(conn, chunk):
            by_game[event.game_id].append(event)
        for game_id in chunk:
            result = result_of(by_game[game_id])
            if result is None:
                continue
            kind = result.game_type
            current = {rater: table.get((kind, rater), NEW) for rater in result.raters}
            for rater, rating in rate(result, current).items():
                table[(kind, rater)] = rating
            taken.append((game_id, kind))
        done += len(chunk)
        progress(done, len(order))
    return table, taken
