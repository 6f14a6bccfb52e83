"""Players on Postgres: their rows (a name and the hash of their key), the seats they hold
(kept with the events that seat or unseat them), their inbox of tables, and their notices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from uuid import UUID

from psycopg.rows import class_row

from events.credentials import token_hash
from events.player_records import InboxRow, NoticeRow, PlayerRow
from events.postgres.connections import Connection
from events.postgres.db import fetch_all, fetch_one, fetch_value
from events.wakeups import PLAYER_CHANNEL, WEBHOOK_CHANNEL


def create(conn: Connection, player_id: UUID, name: str, key: str) -> PlayerRow:
    row = fetch_one(
        conn,
        "INSERT INTO players (id, name, key_hash) VALUES (%s, %s, %s)"
        " RETURNING id, name, created_at",
        (player_id, name, token_hash(key)),
        row_factory=class_row(PlayerRow),
    )
    assert row is not None
    return row


def new_key(conn: Connection, player_id: UUID, key: str) -> list[UUID]:
    """The player's key from now on (the old one stops working at commit); the games where
    it sits, whose streams must end for the old key."""
    conn.execute("UPDATE players SET key_hash = %s WHERE id = %s", (token_hash(key), player_id))
    return games_of(conn, player_id)


def games_of(conn: Connection, player_id: UUID) -> list[UUID]:
    rows = fetch_all(conn, "SELECT game_id FROM player_seats WHERE player_id = %s", (player_id,))
    return [row[0] for row in rows]


def by_key(conn: Connection, key: str) -> PlayerRow | None:
    return fetch_one(
        conn,
        "SELECT id, name, created_at FROM players WHERE key_hash = %s",
        (token_hash(key),),
        row_factory=class_row(PlayerRow),
    )


def holds_key(conn: Connection, player_id: UUID, credential: str) -> bool:
    """Whether the key hashing to `credential` is the player's now."""
    query = "SELECT 1 FROM players WHERE id = %s AND key_hash = %s"
    return fetch_one(conn, query, (player_id, credential)) is not None


def by_id(conn: Connection, player_id: UUID) -> PlayerRow | None:
    return fetch_one(
        conn,
        "SELECT id, name, created_at FROM players WHERE id = %s",
        (player_id,),
        row_factory=class_row(PlayerRow),
    )


def bot_level(conn: Connection, player_id: UUID) -> str | None:
    """The level of a bot level's rated identity (None: a player with a key, or none)."""
    level: str | None = fetch_value(
        conn, "SELECT bot_level FROM players WHERE id = %s", (player_id,)
    )
    return level


def names(conn: Connection, player_ids: Iterable[UUID]) -> dict[UUID, str]:
    rows = fetch_all(conn, "SELECT id, name FROM players WHERE id = ANY(%s)", (list(player_ids),))
    return {row[0]: row[1] for row in rows}


def finished_games_by_type(conn: Connection, player_id: UUID) -> dict[str, int]:
    rows = fetch_all(
        conn,
        "SELECT s.game_type, count(*) FROM player_seats ps"
        " JOIN streams s ON s.game_id = ps.game_id"
        " WHERE ps.player_id = %s AND s.status = 'finished' GROUP BY s.game_type",
        (player_id,),
    )
    return {row[0]: row[1] for row in rows}


def seat(conn: Connection, game_id: UUID, seats: Mapping[int, UUID]) -> None:
    """Records each seat's player (a table's creation, or a join), in one statement."""
    if seats:
        rows = ", ".join(["(%s, %s, %s)"] * len(seats))
        params = [p for s, player in seats.items() for p in (player, game_id, s)]
        conn.execute(f"INSERT INTO player_seats (player_id, game_id, seat) VALUES {rows}", params)


def unseat(conn: Connection, game_id: UUID, seats: Iterable[int]) -> None:
    conn.execute(
        "DELETE FROM player_seats WHERE game_id = %s AND seat = ANY(%s)", (game_id, list(seats))
    )


# A notice, numbered in its player's order, and in the same statement a webhook delivery of it
# for each of the player's enabled endpoints subscribed to its kind (waking the webhook relay
# at commit if there is one): a notice and its deliveries commit together or not at all.
_ADD_NOTICE = """
WITH n AS (UPDATE players SET notices = notices + 1 WHERE id = %(player)s RETURNING notices),
notice AS (
    INSERT INTO notices (player_id, number, kind, game_id, version, seat)
    SELECT %(player)s, n.notices, %(kind)s, %(game)s::uuid, %(version)s::integer,
           %(seat)s::smallint FROM n
    RETURNING number
), sent AS (
    INSERT INTO webhook_deliveries (endpoint_id, player_id, kind, notice)
    SELECT e.id, %(player)s, %(kind)s, notice.number FROM notice
    JOIN webhook_endpoints e
      ON e.player_id = %(player)s AND e.enabled AND %(kind)s::text = ANY (e.events)
    RETURNING 1
)
SELECT pg_notify(%(channel)s, '') WHERE EXISTS (SELECT 1 FROM sent)
"""


def add_notices(
    conn: Connection, game_id: UUID, version: int, notices: Iterable[tuple[UUID, str, int]]
) -> list[UUID]:
    """Each (player, kind, seat) numbered in its player's order: taking numbers locks each
    player's row until the commit, so notices commit in the order of their numbers. Returns
    the players told, for their streams' wake-up. The statements go in one round trip (psycopg
    pipelines an executemany), still run one after the other in this order: a table's creation
    tells every seat two or three notices."""
    told = list(notices)
    rows = [{"player": player, "kind": kind, "game": game_id, "version": version,
             "seat": seat_index, "channel": WEBHOOK_CHANNEL}
            for player, kind, seat_index in told]  # fmt: skip
    if rows:
        conn.cursor().executemany(_ADD_NOTICE, rows)
    return [player for player, _, _ in told]


def add_notice(
    conn: Connection,
    player: UUID,
    kind: str,
    game_id: UUID | None = None,
    version: int | None = None,
    seat: int | None = None,
) -> None:
    """One notice, and its webhook deliveries; a player-level notice (e.g. an endpoint
    disabled) has no game, version or seat."""
    params = {"player": player, "kind": kind, "game": game_id, "version": version,
              "seat": seat, "channel": WEBHOOK_CHANNEL}  # fmt: skip
    conn.execute(_ADD_NOTICE, params)


def wake_player(conn: Connection, player_id: UUID) -> None:
    """NOTIFYs the player's streams at commit."""
    conn.execute("SELECT pg_notify(%s, %s)", (PLAYER_CHANNEL, str(player_id)))


def wake_players(conn: Connection, player_ids: Iterable[UUID]) -> None:
    """NOTIFYs each player's streams at commit, in one statement."""
    conn.execute(
        "SELECT pg_notify(%s, player) FROM unnest(%s::text[]) AS player",
        (PLAYER_CHANNEL, [str(player) for player in player_ids]),
    )


_NOTICES_FOR_KEY = """
SELECT k.valid, n.number, n.kind, n.game_id, n.version, n.seat, n.created_at
FROM (SELECT EXISTS (SELECT 1 FROM players WHERE id = %s AND key_hash = %s) AS valid) k
LEFT JOIN LATERAL (
    SELECT number, kind, game_id, version, seat, created_at FROM notices
    WHERE player_id = %s AND number > %s ORDER BY number LIMIT %s) n ON k.valid
"""


def notices_for_key(
    conn: Connection, player_id: UUID, credential: str, after: int, limit: int
) -> tuple[bool, list[NoticeRow]]:
    """Whether the key hashing to `credential` is still the player's, and if so its notices
    after number `after`, in one statement: a player's stream learns both at each wake-up."""
    rows = fetch_all(conn, _NOTICES_FOR_KEY, (player_id, credential, player_id, after, limit))
    valid = bool(rows and rows[0][0])
    notices = [NoticeRow(*row[1:]) for row in rows if row[1] is not None]
    return valid, notices


_INBOX = """
SELECT ps.game_id, s.game_type, s.status, ps.seat, ps.seat = ANY(s.to_act) AS my_turn,
       t.deadline, s.version, s.updated_at, ps.last_acted_version
FROM player_seats ps
JOIN streams s ON s.game_id = ps.game_id
LEFT JOIN turn_timers t ON t.game_id = ps.game_id AND t.seat = ps.seat
WHERE ps.player_id = %(player)s
  AND (%(status)s::text IS NULL OR s.status = %(status)s)
  AND (NOT %(mine)s OR ps.seat = ANY(s.to_act))
  AND (%(before_at)s::timestamptz IS NULL
       OR (s.updated_at, ps.game_id) < (%(before_at)s, %(before_id)s))
ORDER BY s.updated_at DESC, ps.game_id DESC
LIMIT %(limit)s
"""


def inbox(
    conn: Connection,
    player_id: UUID,
    status: str | None,
    mine: bool,
    before: tuple[datetime, UUID] | None,
    limit: int,
) -> list[InboxRow]:
    """The player's tables, most recently moved first (keyset pages)."""
    params = {
        "player": player_id,
        "status": status,
        "mine": mine,
        "before_at": before[0] if before else None,
        "before_id": before[1] if before else None,
        "limit": limit,
    }
    return fetch_all(conn, _INBOX, params, row_factory=class_row(InboxRow))
