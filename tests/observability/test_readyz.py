"""GET /readyz: 503 only when Postgres or Redis is out of reach; silent workers and a lagging
outbox leave the API ready (it serves every request) and are named in `degraded`."""

from __future__ import annotations

import redis

from events.operations import heartbeats


def test_without_a_worker_the_api_is_ready_but_degraded(client):
    response = client.get("/readyz")
    body = response.get_json()
    assert response.status_code == 200
    assert body["status"] == "ready" and body["degraded"] == ["workers"]
    assert body["workers"] == {
        "status": "silent",
        "last_heartbeat_seconds": None,
        "alive": 0,
        "silent_after_seconds": heartbeats.SILENT_AFTER_SECONDS,
    }
    assert body["outbox"]["lag_seconds"] >= 0


def test_a_full_workers_heartbeat_makes_it_whole_and_a_stale_one_does_not(client, settings):
    connection = redis.Redis.from_url(settings.redis_url)
    who = "full:test-host:1"
    heartbeats.beat(connection, settings.queue_name, who)
    body = client.get("/readyz").get_json()
    assert body["workers"]["status"] == "ok" and body["degraded"] == []
    assert 0 <= body["workers"]["last_heartbeat_seconds"] < 5
    stale = heartbeats.SILENT_AFTER_SECONDS + 5
    seconds, micros = connection.time()
    connection.zadd(heartbeats.key(settings.queue_name), {who: seconds + micros / 1e6 - stale})
    body = client.get("/readyz").get_json()
    assert body["workers"]["status"] == "silent" and body["degraded"] == ["workers"]
    assert body["workers"]["last_heartbeat_seconds"] >= stale
    connection.delete(heartbeats.key(settings.queue_name))


def test_a_jobs_only_worker_alone_does_not_relay_the_outbox(client, settings):
    connection = redis.Redis.from_url(settings.redis_url)
    heartbeats.beat(connection, settings.queue_name, "jobs:test-host:2")
    body = client.get("/readyz").get_json()
    assert body["workers"]["alive"] == 1 and body["degraded"] == ["workers"]
    connection.delete(heartbeats.key(settings.queue_name))
