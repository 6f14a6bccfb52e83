"""The matcher on real Postgres: two matchers at once never seat a player twice, a player who
left the queue is never seated, and a player leaving while its table is being created waits for
it and is told where it sits. Each matcher has its own pool, as in two worker processes; the
database is this module's own, so no worker of the session runs a matcher on it."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter

import psycopg
import pytest

from domain.games import GAME_TYPES
from events.bootstrap import Cardroom, bootstrap
from events.matchmaking.queue import AlreadyMatched, QueueRequest
from events.operations.settings import Settings
from tests.events.test_commands_on_postgres import run_together


def built(url: str, key_dir) -> Cardroom:
    settings = Settings(database_url=url, audit_key_file=str(key_dir / "k.pem"))
    return bootstrap(settings, pool_size=4)


@pytest.fixture()
def two(private_database_url, tmp_path):
    """Two service instances on one database: two matchers, as two worker processes hold."""
    first, second = built(private_database_url, tmp_path), built(private_database_url, tmp_path)
    with first.pool.connection() as conn:
        conn.execute("DELETE FROM queue_entries")
    yield first, second
    first.close()
    second.close()


def players_waiting(cardroom: Cardroom, count: int, **asked) -> list[uuid.UUID]:
    found = []
    for index in range(count):
        player, _ = cardroom.players.create(f"p{index}")
        request = QueueRequest(**{"game_type": "st_patrick", "sizes": [3], **asked})
        cardroom.queue.join(player.id, request)
        found.append(player.id)
    return found


def seats_of(cardroom: Cardroom, players: list[uuid.UUID]) -> Counter:
    """How many seats each of these players holds, at any table."""
    with cardroom.pool.connection() as conn:
        rows = conn.execute(
            "SELECT player_id FROM player_seats WHERE player_id = ANY(%s)", (players,)
        ).fetchall()
    return Counter(row["player_id"] for row in rows)


def still_waiting(cardroom: Cardroom) -> int:
    with cardroom.pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM queue_entries").fetchone()["n"]


def tables_made(cardroom: Cardroom) -> int:
    with cardroom.pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM streams").fetchone()["n"]


def test_two_matchers_proposing_the_same_tables_seat_each_player_once(two):
    # Given twelve players waiting for tables of three, and two matchers that both see them
    first, second = two
    players = players_waiting(first, 12)
    proposed_first, proposed_second = first.matcher.propose(), second.matcher.propose()
    assert len(proposed_first) == len(proposed_second) == 4
    # When the first seats its tables, then the second tries the same ones
    made = [first.matcher.seat(p) for p in proposed_first]
    again = [second.matcher.seat(p) for p in proposed_second]
    # Then the second seats nobody: every player holds exactly one seat
    assert None not in made and again == [None] * 4
    assert seats_of(first, players) == Counter({player: 1 for player in players})
    assert still_waiting(first) == 0


def test_two_matchers_passing_at_once_seat_every_player_exactly_once(two):
    # Given 150 players of every game and table size, half of them content with bots at once
    first, second = two
    rng = random.Random(41)
    sizes = {game.id: (game.min_players, game.max_players) for game in GAME_TYPES.values()}
    players = []
    for index in range(150):
        game_type = rng.choice(sorted(sizes))
        low, high = sizes[game_type]
        asked = rng.sample(range(low, high + 1), rng.randint(1, high - low + 1))
        bots = 0 if index % 2 else None
        players += players_waiting(
            first, 1, game_type=game_type, sizes=asked, bots_after_seconds=bots
        )
    # When both matchers pass at the same moment, again and again, until the queue is still
    for _ in range(10):
        results = run_together([first.matcher.run_once, second.matcher.run_once])
        assert not [r for r in results if isinstance(r, Exception)]
        if not any(results):
            break
    # Then no player holds two seats, and each seated player's last match names its seat
    held = seats_of(first, players)
    assert set(held.values()) == {1}
    with first.pool.connection() as conn:
        matched = conn.execute(
            "SELECT m.player_id FROM queue_matches m JOIN player_seats s"
            " ON s.player_id = m.player_id AND s.game_id = m.game_id AND s.seat = m.seat"
            " WHERE m.player_id = ANY(%s)",
            (players,),
        ).fetchall()
    assert {row["player_id"] for row in matched} == set(held)
    # And everyone who asked for bots was seated; the others are seated or still wait
    assert len(held) + still_waiting(first) == len(players)
    assert still_waiting(first) <= len(players) // 2


def test_a_player_who_left_before_its_table_was_created_is_never_seated(two):
    # Given three players a matcher has put at one table, not yet created
    cardroom, _ = two
    players = players_waiting(cardroom, 3)
    (proposal,) = cardroom.matcher.propose()
    before = tables_made(cardroom)
    # When one of them leaves first
    cardroom.queue.leave(players[0])
    # Then the table is not made, nobody is seated, and the other two wait on
    assert cardroom.matcher.seat(proposal) is None
    assert tables_made(cardroom) == before
    assert seats_of(cardroom, players) == Counter()
    assert still_waiting(cardroom) == 2


def test_leaving_while_the_table_is_being_created_waits_and_is_told_where_it_sits(
    two, private_database_url
):
    # Given three players at a table a matcher is creating, held at its commit: another
    # transaction holds the first player's row, whose notices the creation must number
    cardroom, _ = two
    players = players_waiting(cardroom, 3)
    (proposal,) = cardroom.matcher.propose()
    first = min(players)  # the row the creation locks first (players' rows go in id order)
    with psycopg.connect(private_database_url) as holder:
        holder.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (first,))
        created: list = []
        creating = threading.Thread(target=lambda: created.append(cardroom.matcher.seat(proposal)))
        creating.start()
        waits_for_locks(private_database_url, 1)
        # When the player leaves the queue meanwhile
        left: list = []
        leaving = threading.Thread(target=lambda: left.append(_leave(cardroom, first)))
        leaving.start()
        waits_for_locks(private_database_url, 2)  # the leave waits on the entry being seated
        holder.rollback()
    creating.join(10)
    leaving.join(10)
    # Then the table was created with the player seated, and the leave says where
    (game_id,) = created
    (refusal,) = left
    assert game_id is not None and isinstance(refusal, AlreadyMatched)
    assert refusal.match.game_id == game_id
    assert seats_of(cardroom, players) == Counter({player: 1 for player in players})


def _leave(cardroom: Cardroom, player: uuid.UUID) -> Exception | None:
    try:
        cardroom.queue.leave(player)
    except AlreadyMatched as refused:
        return refused
    return None


def waits_for_locks(url: str, count: int, within: float = 10.0) -> None:
    """Until `count` sessions of the database wait for a lock."""
    deadline = time.monotonic() + within
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchone()
            if row and row[0] >= count:
                return
            time.sleep(0.02)
    raise AssertionError(f"fewer than {count} sessions waited for a lock")
