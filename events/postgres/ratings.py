"""Ratings on Postgres: the ratings rows, the rated games in the order they were taken, the
events a rating reads, and the leaderboard's pages."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID

from domain.tables.rated_games import RATING_EVENTS
from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_one
from events.postgres.store import EVENT_COLUMNS, event_from_row
from events.ratings import NEW, LeaderPosition, LeaderRow, Rating
from events.records import StoredEvent


def rating_events(conn: Connection, game_ids: Sequence[UUID]) -> list[StoredEvent]:
    """The events a rating reads of these games (domain/tables/rated_games.py), each game's in
    order."""
    rows = fetch_all(
        conn,
        f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ANY(%s) AND type = ANY(%s)"
        " ORDER BY game_id, version",
        (list(game_ids), list(RATING_EVENTS)),
    )
    return [event_from_row(row) for row in rows]


def is_rated(conn: Connection, game_id: UUID) -> bool:
    return fetch_one(conn, "SELECT 1 FROM rated_games WHERE game_id = %s", (game_id,)) is not None


def lock_ratings(conn: Connection, game_type: str, raters: Iterable[str]) -> dict[str, Rating]:
    """The raters' ratings of the type, each row locked until the commit (made, new, if
    missing). One statement locks them in the order of their ids, so two games sharing raters
    never wait for each other in a circle."""
    ordered = sorted({UUID(rater) for rater in raters})
    values = ", ".join(["(%s, %s, %s, %s, 0, %s, true)"] * len(ordered))
    params = [p for rater in ordered for p in (rater, game_type, NEW.mu, NEW.sigma, NEW.display)]
    rows = fetch_all(
        conn,
        "INSERT INTO ratings (player_id, game_type, mu, sigma, games, display, provisional)"
        f" VALUES {values} ON CONFLICT (player_id, game_type)"
        " DO UPDATE SET games = ratings.games RETURNING player_id, mu, sigma, games",
        params,
    )
    return {str(row[0]): Rating(row[1], row[2], row[3]) for row in rows}


def record_rated(conn: Connection, game_id: UUID, game_type: str) -> bool:
    """Numbers the game as taken now; False if it was taken already."""
    cur = conn.execute(
        "INSERT INTO rated_games (game_id, game_type) VALUES (%s, %s)"
        " ON CONFLICT (game_id) DO NOTHING",
        (game_id, game_type),
    )
    return cur.rowcount == 1


def save(conn: Connection, game_type: str, ratings: Mapping[str, Rating]) -> None:
    """Writes ratings of rows that exist (lock_ratings made them)."""
    if not ratings:
        return
    row = "(%s::uuid, %s::float8, %s::float8, %s::integer, %s::float8, %s::boolean)"
    values = ", ".join([row] * len(ratings))
    params = [
        p
        for rater, r in ratings.items()
        for p in (rater, r.mu, r.sigma, r.games, r.display, r.provisional)
    ]
    conn.execute(
        "UPDATE ratings r SET mu = v.mu, sigma = v.sigma, games = v.games,"
        " display = v.display, provisional = v.provisional, updated_at = now()"
        f" FROM (VALUES {values}) AS v (player_id, mu, sigma, games, display, provisional)"
        " WHERE r.player_id = v.player_id AND r.game_type = %s",
        [*params, game_type],
    )


def ratings_of(conn: Connection, player_id: UUID) -> dict[str, Rating]:
    rows = fetch_all(
        conn,
        "SELECT game_type, mu, sigma, games FROM ratings WHERE player_id = %s"
        " AND games > 0 ORDER BY game_type",
        (player_id,),
    )
    return {row[0]: Rating(row[1], row[2], row[3]) for row in rows}


# A page: a range of the leaderboard index (0015_leaderboard_ties.sql), in its order: the best
# display first; among equal displays, the player with more rated games first; then the lower
# player id (as its text sorts). Two texts: a plan made for the first page, where there is no
# position to start after, would not serve the others. The next page's first condition is the
# index range; the second drops the rows of the previous page's own (display, games) it listed.
_PAGE = """
SELECT r.player_id, p.name, p.bot_level, r.mu, r.sigma, r.display, r.games
FROM ratings r JOIN players p ON p.id = r.player_id
WHERE r.game_type = %(type)s AND NOT r.provisional {after}
ORDER BY r.display DESC, r.games DESC, r.player_id
LIMIT %(limit)s
"""
_FIRST_PAGE = _PAGE.format(after="")
_NEXT_PAGE = _PAGE.format(
    after="AND (r.display, r.games) <= (%(display)s, %(games)s)"
    " AND ((r.display, r.games) < (%(display)s, %(games)s) OR r.player_id > %(player)s::uuid)"
)


def leaderboard(
    conn: Connection, game_type: str, after: LeaderPosition | None, limit: int
) -> list[LeaderRow]:
    """A page of the type's non-provisional ratings in the board's order (best display, then
    more rated games, then the lower player id), after `after` (the previous page's last row)."""
    params = {"type": game_type, "limit": limit}
    if after:
        params |= {"display": after.display, "games": after.games, "player": after.player_id}
    statement = _NEXT_PAGE if after else _FIRST_PAGE
    rows = fetch_all(conn, statement, params)
    return list(_ranked(rows, after or LeaderPosition(float("inf"), 0, UUID(int=0), 0, 0)))


def _ranked(rows: list[tuple[Any, ...]], previous: LeaderPosition) -> Iterable[LeaderRow]:
    """Ranks go on from the previous row's: a row sharing its display shares its rank; any
    other is ranked by its position. Counting the players above a deep page would cost a scan
    of all of them; the position travels in the cursor instead."""
    rank, position, display = previous.rank, previous.position, previous.display
    for row in rows:
        position += 1
        if row[5] != display:
            rank, display = position, row[5]
        yield LeaderRow(rank, position, *row)


# The rated games that ended, in the order the ratings took them, then those never taken, in
# the order their games ended in the log.
_REBUILD_ORDER = """
SELECT s.game_id
FROM streams s
JOIN events created ON created.game_id = s.game_id AND created.version = 1
LEFT JOIN rated_games g ON g.game_id = s.game_id
WHERE s.status = 'finished' AND created.data -> 'options' -> 'rated' = 'true'::jsonb
ORDER BY g.seq NULLS LAST,
         (SELECT min(e.global_position) FROM events e
          WHERE e.game_id = s.game_id AND e.type = 'GameEnded')
"""


def rebuild_order(conn: Connection) -> list[UUID]:
    rows = fetch_all(conn, _REBUILD_ORDER)
    return [row[0] for row in rows]


def replace_all(conn: Connection, rebuilt: Mapping[tuple[str, str], Rating]) -> None:
    """Every rating row anew: (game type, rater) -> its rating."""
    conn.execute("DELETE FROM ratings")
    columns = "player_id, game_type, mu, sigma, games, display, provisional"
    with conn.cursor().copy(f"COPY ratings ({columns}) FROM STDIN") as copy:
        for (game_type, rater), r in rebuilt.items():
            copy.write_row((UUID(rater), game_type, r.mu, r.sigma, r.games, r.display,
                            r.provisional))  # fmt: skip


def record_all_rated(conn: Connection, taken: Sequence[tuple[UUID, str]]) -> None:
    """Numbers the games not numbered yet, after every game that is, in the order given."""
    if not taken:
        return
    conn.execute(
        "INSERT INTO rated_games (game_id, game_type)"
        " SELECT t.game_id, t.game_type FROM unnest(%s::uuid[], %s::text[])"
        " WITH ORDINALITY AS t (game_id, game_type, n) ORDER BY t.n"
        " ON CONFLICT (game_id) DO NOTHING",
        ([game_id for game_id, _ in taken], [kind for _, kind in taken]),
    )
