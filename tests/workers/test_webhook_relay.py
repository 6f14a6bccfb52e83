"""Webhook deliveries against real Postgres, Redis and RQ, the jobs run here in burst mode (so
the test decides when): a delivery exists only if its notice committed, a job lost by Redis is
handed out again by the sweeper, and an attempt handed out twice is sent once."""

from __future__ import annotations

import time
import uuid

import pytest

from events.postgres import players
from events.webhooks.records import DueDelivery
from tests.api.webhook_receiver import receiving
from tests.workers import in_process
from tests.workers.in_process import run_jobs
from workers import webhooks as relay
from workers.webhooks import relay_due, sweep_stale


@pytest.fixture()
def ctx(monkeypatch, private_database_url, redis_url):
    monkeypatch.setenv("WEBHOOKS_ALLOW_PRIVATE", "1")  # the receiver is on 127.0.0.1
    with in_process.worker_context(monkeypatch, private_database_url, redis_url, "hooks") as c:
        with c.cardroom().pool.connection() as conn:  # what earlier tests left is not ours
            conn.execute("UPDATE webhook_deliveries SET done_at = now() WHERE done_at IS NULL")
        yield c
        relay.queue().delete(delete_jobs=True)


def run_deliveries(ctx) -> None:
    run_jobs(ctx, queues=[relay.queue()])


def player_with_webhook(ctx, url: str) -> tuple[uuid.UUID, str]:
    """A player, and the secret of its webhook at `url`, told of invitations."""
    cardroom = ctx.cardroom()
    player, _ = cardroom.players.create("Bob")
    _, secret = cardroom.webhooks.register(player.id, url, ["invited"])
    return player.id, secret


def tell(ctx, player: uuid.UUID, commit: bool = True) -> None:
    """An `invited` notice for the player, in a transaction that commits or rolls back."""
    with ctx.cardroom().pool.connection() as conn:
        conn.execute("BEGIN")
        players.add_notice(conn, player, "invited", uuid.uuid4(), 2, 1)
        conn.execute("COMMIT" if commit else "ROLLBACK")


def open_deliveries(ctx, player: uuid.UUID) -> int:
    with ctx.cardroom().pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM webhook_deliveries WHERE player_id = %s AND done_at IS NULL",
            (player,),
        ).fetchone()
    return row["n"]


def test_a_delivery_exists_only_if_its_notice_committed(ctx):
    with receiving() as receiver:
        player, receiver.secret = player_with_webhook(ctx, receiver.url)
        tell(ctx, player, commit=False)
        assert open_deliveries(ctx, player) == 0
        tell(ctx, player)
        assert open_deliveries(ctx, player) == 1
        assert relay_due() == 1
        run_deliveries(ctx)
        assert [r.payload["id"] for r in receiver.delivered()] == [1]  # the rolled back one: none
    assert open_deliveries(ctx, player) == 0


def test_a_job_redis_lost_is_handed_out_again_by_the_sweeper_and_delivered_once(ctx):
    with receiving() as receiver:
        player, receiver.secret = player_with_webhook(ctx, receiver.url)
        tell(ctx, player)
        assert relay_due() == 1
        relay.queue().empty()  # Redis lost the job
        run_deliveries(ctx)
        assert receiver.received == [] and relay_due() == 0  # in flight: nothing more goes
        assert sweep_stale(older_than_seconds=0) == 1
        run_deliveries(ctx)
        assert len(receiver.delivered()) == 1
        assert sweep_stale(older_than_seconds=0) == 0


def test_an_attempt_handed_out_twice_is_sent_once(ctx):
    with receiving() as receiver:
        player, receiver.secret = player_with_webhook(ctx, receiver.url)
        tell(ctx, player)
        relay_due()
        with ctx.cardroom().pool.connection() as conn:
            (delivery,) = conn.execute(
                "SELECT id, failures FROM webhook_deliveries WHERE player_id = %s", (player,)
            ).fetchall()
        due = DueDelivery(delivery["id"], delivery["failures"])
        relay.enqueue(due)  # the sweeper, say, while the first is still queued
        relay.enqueue(due)
        run_deliveries(ctx)
        assert len(receiver.received) == 1


def test_a_second_notice_waits_until_the_first_is_delivered(ctx, monkeypatch):
    # A retry far enough off that a slow machine never reaches it within the test
    monkeypatch.setenv("WEBHOOK_RETRY_SECONDS", "30")
    ctx.settings.cache_clear()
    with receiving() as receiver:
        receiver.plan = [500]
        player, receiver.secret = player_with_webhook(ctx, receiver.url)
        tell(ctx, player)
        tell(ctx, player)
        assert relay_due() == 1  # one at a time per endpoint
        run_deliveries(ctx)
        assert relay_due() == 0  # the first waits for its retry, the second behind it
        assert [r.answered for r in receiver.received] == [500]


def test_an_endpoint_gets_no_more_deliveries_a_second_than_its_setting(ctx, monkeypatch):
    monkeypatch.setenv("WEBHOOK_DELIVERIES_PER_SECOND", "0.25")  # one every 4 s
    ctx.settings.cache_clear()  # the relay reads its settings again
    with receiving() as receiver:
        player, receiver.secret = player_with_webhook(ctx, receiver.url)
        tell(ctx, player)
        tell(ctx, player)
        assert relay_due() == 1
        first = time.monotonic()
        run_deliveries(ctx)
        assert len(receiver.delivered()) == 1
        assert relay_due() == 0  # delivered, but the second must wait its turn
        time.sleep(max(0.0, first + 4.2 - time.monotonic()))
        assert relay_due() == 1
        run_deliveries(ctx)
        assert len(receiver.delivered()) == 2
