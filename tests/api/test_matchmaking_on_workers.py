"""Matchmaking as deployed: two real worker processes, each with its matcher passing every
second, on one database, while players join in waves. Every player ends up seated exactly once
(the bots after 2 s leave nobody waiting), and the tables are created with their events."""

from __future__ import annotations

import dataclasses
import random
import time
import uuid
from collections import Counter

import pytest

from domain.games import GAME_TYPES
from events.bootstrap import bootstrap
from events.matchmaking.queue import QueueRequest
from tests.service import start_worker, stop_worker

SIZES = {game.id: (game.min_players, game.max_players) for game in GAME_TYPES.values()}


@pytest.fixture()
def service(settings, private_database_url):
    """This module's database, its own RQ queue, and the service's parts on it."""
    own = dataclasses.replace(
        settings, database_url=private_database_url, queue_name=f"{settings.queue_name}-mm"
    )
    cardroom = bootstrap(own, pool_size=4)
    yield own, cardroom
    cardroom.close()


def test_two_worker_processes_matching_at_once_seat_every_player_exactly_once(service):
    settings, cardroom = service
    workers = [start_worker(settings), start_worker(settings)]
    try:
        # Given 120 players joining queues of every game in four waves, bots after 2 s
        rng = random.Random(7)
        players: list[uuid.UUID] = []
        for _wave in range(4):
            for index in range(30):
                player, _ = cardroom.players.create(f"p{index}")
                game_type = rng.choice(sorted(SIZES))
                low, high = SIZES[game_type]
                sizes = rng.sample(range(low, high + 1), rng.randint(1, high - low + 1))
                cardroom.queue.join(player.id, QueueRequest(game_type, sizes, True, 2))
                players.append(player.id)
            time.sleep(0.5)
        # When the two workers' matchers have had time to seat them all
        deadline = time.monotonic() + 30
        while _waiting(cardroom) and time.monotonic() < deadline:
            time.sleep(0.2)
        # Then nobody waits, and each player holds exactly one seat, the one its match names
        assert _waiting(cardroom) == 0
        with cardroom.pool.connection() as conn:
            seats = conn.execute(
                "SELECT s.player_id, s.game_id, s.seat, m.game_id AS matched_game,"
                " m.seat AS matched_seat FROM player_seats s"
                " JOIN queue_matches m ON m.player_id = s.player_id"
                " WHERE s.player_id = ANY(%s)",
                (players,),
            ).fetchall()
        held = Counter(row["player_id"] for row in seats)
        assert held == Counter({player: 1 for player in players})
        assert all(
            (r["game_id"], r["seat"]) == (r["matched_game"], r["matched_seat"]) for r in seats
        )
        # And every table was created with its events, and dealt
        for game_id in {row["game_id"] for row in seats}:
            table, version = cardroom.queries.game(game_id)
            assert table.started and version > 1
    finally:
        for worker in workers:
            stop_worker(worker)


def _waiting(cardroom) -> int:
    with cardroom.pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM queue_entries").fetchone()["n"]
