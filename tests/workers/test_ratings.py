"""Ratings as a projection of the log, against real Postgres, Redis and RQ (the test runs the
RQ worker itself): a rated game's end reaches its raters' ratings through the outbox, once;
a leaver is rated last; and the rebuild from the events equals the incremental ratings, even
when the games were taken by several workers at once."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import uuid

import pytest

from domain.games import get_game_type
from domain.tables import table as tables
from domain.tables.rated_tables import BOT_RATERS
from events.ratings import NEW
from testing.databases import temporary_database
from tests.conftest import SESSION_ID
from tests.workers import in_process
from tests.workers.in_process import loaded, run_jobs
from workers.jobs import run_work
from workers.relay import relay_pending

RATED = {"rated": True}


@pytest.fixture()
def worker_context(monkeypatch, redis_url):
    """The worker side on a database of this test's own: a rebuild reads every game there."""
    name = f"cardroom_test_{SESSION_ID}_{uuid.uuid4().hex[:6]}"
    with temporary_database(os.environ["DATABASE_URL"], name) as url:
        with in_process.worker_context(monkeypatch, url, redis_url, "ratings") as ctx:
            yield ctx


def bot(level: str) -> tables.SeatInfo:
    return tables.SeatInfo(tables.BOT, level=level)


def create(ctx, game_type: str, seats, options=RATED) -> uuid.UUID:
    game_id = uuid.uuid4()
    command = tables.CreateTable(tuple(seats), dict(options))
    ctx.cardroom().commands.create(game_id, get_game_type(game_type), command)
    return game_id


def play_out(ctx) -> None:
    """Runs the games' work (bots' turns, scoring) here, job function by job function, until
    every game is over: RQ would only make the tests slow. The ratings work stays queued."""
    for _ in range(100_000):
        with ctx.cardroom().pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, version, kind FROM outbox"
                " WHERE done_at IS NULL AND kind <> 'ratings' ORDER BY id"
            ).fetchall()
        if not rows:
            return
        for row in rows:
            run_work(str(row["game_id"]), row["version"], row["kind"])
    raise AssertionError("the games never ended")


def drain(ctx) -> None:
    """Plays the games out, then the relay hands the ratings work to RQ, and RQ runs it."""
    play_out(ctx)
    while relay_pending():
        run_jobs(ctx)
    assert not ratings_work(ctx)


def ratings_work(ctx) -> list[tuple[uuid.UUID, int]]:
    """(game, version) of each ratings work not done yet."""
    with ctx.cardroom().pool.connection() as conn:
        rows = conn.execute(
            "SELECT game_id, version FROM outbox WHERE kind = 'ratings' AND done_at IS NULL"
        ).fetchall()
    return [(row["game_id"], row["version"]) for row in rows]


def all_ratings(ctx) -> dict[tuple[str, str], tuple]:
    with ctx.cardroom().pool.connection() as conn:
        rows = conn.execute(
            "SELECT player_id, game_type, mu, sigma, games, display, provisional FROM ratings"
        ).fetchall()
    return {(str(r["player_id"]), r["game_type"]): tuple(r.values())[2:] for r in rows}


def test_a_rated_game_that_ends_moves_its_raters_ratings_through_the_outbox(worker_context):
    # Given a rated table of bots, the random level at two seats
    seats = [bot("random"), bot("basic"), bot("random")]
    game_id = create(worker_context, "trick_and_snipers", seats)
    # When the workers play it to the end
    drain(worker_context)
    table, _ = loaded(worker_context, game_id)
    assert table.status == "finished"
    # Then the ratings took it once: each bot level one game more, the winner's mu up
    rated = all_ratings(worker_context)
    assert set(rated) == {(BOT_RATERS["random"], "trick_and_snipers"),
                          (BOT_RATERS["basic"], "trick_and_snipers")}  # fmt: skip
    assert all(games == 1 for _, _, games, _, _ in rated.values())
    assert all(sigma < NEW.sigma for _, sigma, _, _, _ in rated.values())


def test_a_redelivered_game_end_changes_nothing(worker_context):
    game_id = create(worker_context, "trick_and_snipers", [bot("random"), bot("basic")] * 2)
    drain(worker_context)
    before = all_ratings(worker_context)
    _, version = loaded(worker_context, game_id)
    # When the same work comes again (a job Redis lost and the sweeper handed out twice)
    assert worker_context.cardroom().ratings.take(game_id, version) == "already"
    assert run_work(str(game_id), version, "ratings") == "already"
    assert all_ratings(worker_context) == before


def test_an_unrated_game_moves_no_rating(worker_context):
    create(worker_context, "ouroboros_trick", [bot("random"), bot("basic")] * 2, options={})
    drain(worker_context)
    assert all_ratings(worker_context) == {}


def test_a_player_who_leaves_a_rated_game_is_rated_last(worker_context):
    # Given Ann at a rated table with two bots, dealt
    ann, _ = worker_context.cardroom().players.create("Ann")
    seats = [tables.SeatInfo(tables.HUMAN, "Ann", player=str(ann.id)), bot("random"),
             bot("random")]  # fmt: skip
    game_id = create(worker_context, "saint_poker", seats)
    # When she leaves at once and a bot plays her seat to the end
    worker_context.cardroom().commands.leave(game_id, 0)
    drain(worker_context)
    # Then she lost rating as the last of three does, whatever her seat's bot did
    rated = all_ratings(worker_context)
    mu, _, games, _, _ = rated[(str(ann.id), "saint_poker")]
    assert games == 1 and mu < NEW.mu
    (random_mu, *_) = rated[(BOT_RATERS["random"], "saint_poker")]
    assert random_mu > NEW.mu


def rated_games(ctx, count: int, rng: random.Random) -> list[uuid.UUID]:
    """Rated tables of random and basic bots, of the game types whose games are short."""
    kinds = ["trick_and_snipers", "ouroboros_trick"]
    levels = ["random", "basic"]
    return [
        create(ctx, rng.choice(kinds), [bot(rng.choice(levels)) for _ in range(3)])
        for _ in range(count)
    ]


def test_the_rebuild_from_the_events_equals_the_incremental_ratings(worker_context):
    # Given rated games of bots and of a player, taken one by one by the workers
    rated_games(worker_context, 5, random.Random(1))
    ann, _ = worker_context.cardroom().players.create("Ann")
    seats = [tables.SeatInfo(tables.HUMAN, "Ann", player=str(ann.id)), bot("basic"), bot("random")]
    game_id = create(worker_context, "trick_and_snipers", seats)
    worker_context.cardroom().commands.leave(game_id, 0)
    drain(worker_context)
    incremental = all_ratings(worker_context)
    assert len(incremental) >= 5
    # When every rating is rebuilt from the events
    seen: list[tuple[int, int]] = []
    taken = worker_context.cardroom().ratings.rebuild(
        lambda done, total: seen.append((done, total))
    )
    # Then each is exactly what the workers made, and the progress counted every game
    assert taken == 6 and seen[-1] == (6, 6)
    assert all_ratings(worker_context) == incremental
    # And so does the operator's command, printing its progress
    rebuilt = subprocess.run(
        [sys.executable, "-m", "workers.ratings", "--rebuild"],
        env={**os.environ}, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert "read 6/6 rated games" in rebuilt.stderr and "from 6 rated games" in rebuilt.stdout
    assert all_ratings(worker_context) == incremental


def test_the_rebuild_equals_the_ratings_that_several_workers_took_at_once(worker_context):
    # Given rated games that ended, their ratings work not yet done
    games = rated_games(worker_context, 8, random.Random(2))
    play_out(worker_context)
    due = ratings_work(worker_context)
    assert {game_id for game_id, _ in due} == set(games)
    # When four workers take them at once, in shuffled orders
    random.Random(3).shuffle(due)
    updates = worker_context.cardroom().ratings
    threads = [
        threading.Thread(target=lambda part=due[i::4]: [updates.take(*w) for w in part])
        for i in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    incremental = all_ratings(worker_context)
    # Then the rebuild, taking them in the order they were taken, makes the same ratings
    assert worker_context.cardroom().ratings.rebuild() == 8
    assert all_ratings(worker_context) == incremental
