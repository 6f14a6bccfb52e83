"""The outbox relay and the sweeper against real Postgres, Redis and RQ (no worker process:
the test runs the RQ worker in burst mode itself, so it controls when jobs run)."""

from __future__ import annotations

import uuid

import pytest

from domain.games import get_game_type
from domain.kit.templates import action_from_template, random_bot
from domain.tables import table as tables
from domain.tables.view import view_table
from tests.workers import in_process
from tests.workers.in_process import loaded, run_jobs
from workers.relay import relay_pending, sweep_stale


@pytest.fixture()
def worker_context(monkeypatch, private_database_url, redis_url):
    """Point this process's worker context at the test database and a queue of its own."""
    urls = (private_database_url, redis_url)
    with in_process.worker_context(monkeypatch, *urls, "sweeper-test") as ctx:
        yield ctx


def bot_table(ctx) -> uuid.UUID:
    game_id = uuid.uuid4()
    seats = (tables.SeatInfo(tables.BOT, level="random"),) * 3
    commands = ctx.cardroom().commands
    commands.create(game_id, get_game_type("trick_and_snipers"), tables.CreateTable(seats, {}))
    return game_id


def version_of(ctx, game_id: uuid.UUID) -> int:
    return loaded(ctx, game_id)[1]


def drain(ctx, rounds: int = 10) -> None:
    """Relays and runs work until the passing is over (each move queues the next turns)."""
    for _ in range(rounds):
        relay_pending()
        run_jobs(ctx)


def passes_made(ctx, game_id: uuid.UUID) -> dict[int, tuple[int, list]]:
    """Each seat's CardsPassed: (its version, the cards)."""
    stored = ctx.cardroom().queries.events(game_id)
    return {e.seat: (e.version, e.data["cards"]) for e in stored if e.type == "CardsPassed"}


def expected_pass(ctx, game_id: uuid.UUID, seat: int, version: int, bot) -> list:
    """What `bot` passes for `seat` when its job runs with the game at `version - 1`: from that
    seat's view, with the generator seeded by the turn."""
    table = ctx.cardroom().queries.table_at(game_id, version - 1)
    rng = ctx.cardroom().automation.turn_rng(game_id, version - 1, seat)
    action = bot(view_table(table, seat), rng)
    return action["cards"]


def test_the_relay_turns_outbox_rows_into_jobs_that_make_each_bots_own_move(worker_context):
    game_id = bot_table(worker_context)
    # Three bots must pass cards: the relay hands RQ as many as one worker has places for
    assert relay_pending() == worker_context.settings().work_ahead
    run_jobs(worker_context)
    drain(worker_context)  # the turns each move queues again for the bots still to pass
    passes = passes_made(worker_context, game_id)
    assert sorted(passes) == [0, 1, 2]
    for seat, (version, cards) in passes.items():
        assert cards == expected_pass(worker_context, game_id, seat, version, random_bot)


def test_the_sweeper_re_enqueues_work_that_redis_lost(worker_context):
    game_id = bot_table(worker_context)
    before = version_of(worker_context, game_id)
    relayed = relay_pending()
    for queue in worker_context.queues():  # Redis restarted: the jobs are gone, the outbox stays
        queue.empty()
    run_jobs(worker_context)
    assert version_of(worker_context, game_id) == before
    assert sweep_stale(older_than_seconds=0) == relayed >= 1
    run_jobs(worker_context)
    assert version_of(worker_context, game_id) > before


def test_a_duplicated_job_acts_once(worker_context):
    game_id = bot_table(worker_context)
    before = version_of(worker_context, game_id)
    relay_pending()
    sweep_stale(older_than_seconds=0)  # the same jobs again, as after a false alarm
    run_jobs(worker_context)
    with worker_context.cardroom().pool.connection() as conn:
        passes = conn.execute(
            "SELECT seat, count(*) AS n FROM events WHERE game_id = %s AND type = 'CardsPassed'"
            " AND version > %s GROUP BY seat",
            (game_id, before),
        ).fetchall()
    assert passes and all(row["n"] == 1 for row in passes)


def test_old_idempotency_keys_and_finished_outbox_rows_are_purged(worker_context):
    from workers.relay import purge_old_records

    game_id = bot_table(worker_context)
    relayed = relay_pending()
    run_jobs(worker_context)
    with worker_context.cardroom().pool.connection() as conn:
        conn.execute(
            "UPDATE outbox SET done_at = now() - interval '2 hours' WHERE game_id = %s"
            " AND done_at IS NOT NULL",
            (game_id,),
        )
        conn.execute(
            "INSERT INTO idempotency (key_scope, key, request_hash, status, created_at)"
            " VALUES ('create', 'old', 'h', 'done', now() - interval '25 hours'),"
            " ('create', 'young', 'h', 'done', now() - interval '23 hours')"
        )
    keys, done = purge_old_records()
    assert keys == 1 and done >= relayed >= 1
    with worker_context.cardroom().pool.connection() as conn:
        left = conn.execute("SELECT key FROM idempotency").fetchall()
        pending = conn.execute(
            "SELECT count(*) AS n FROM outbox WHERE game_id = %s AND done_at IS NULL", (game_id,)
        ).fetchone()
    assert [row["key"] for row in left] == ["young"]
    assert pending["n"] >= 1  # work not yet done is never purged


def test_a_failing_bot_falls_back_to_a_legal_move_instead_of_stalling_the_game(
    worker_context, monkeypatch
):
    from domain.games import get_game_type

    game_type = get_game_type("trick_and_snipers")

    def broken_bot(view, rng, budget=None):
        raise RuntimeError("a bug in a bot")

    def first_legal(view, rng):
        return action_from_template(view["you"]["legal_actions"][0], rng)

    monkeypatch.setitem(game_type.bots, "random", broken_bot)
    game_id = bot_table(worker_context)
    drain(worker_context)
    passes = passes_made(worker_context, game_id)
    assert sorted(passes) == [0, 1, 2]
    for seat, (version, cards) in passes.items():
        assert cards == expected_pass(worker_context, game_id, seat, version, first_legal)


def test_the_places_ahead_of_a_worker_go_first_to_turns_a_human_waits_for(worker_context):
    bots_only = bot_table(worker_context)
    with_human = uuid.uuid4()
    seats = (tables.SeatInfo(tables.HUMAN, "ada"),) + (
        tables.SeatInfo(tables.BOT, level="random"),
    ) * 2
    commands = worker_context.cardroom().commands
    commands.create(with_human, get_game_type("trick_and_snipers"), tables.CreateTable(seats, {}))
    before = {game: version_of(worker_context, game) for game in (bots_only, with_human)}
    relay_pending()  # both tables' creator is the same: its urgent turns come first
    urgent = {job.split("_")[0] for job in worker_context.queue(urgent=True).job_ids}
    other = {job.split("_")[0] for job in worker_context.queue().job_ids}
    assert urgent == {str(with_human)}
    assert other == set()  # the worker's places went to the human's table's bots
    run_jobs(worker_context, max_jobs=1)  # the first job a worker takes
    assert version_of(worker_context, with_human) > before[with_human]
    assert version_of(worker_context, bots_only) == before[bots_only]
