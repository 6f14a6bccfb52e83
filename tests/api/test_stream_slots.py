"""The caps per client count open streams in Redis sorted sets (api/stream_slots.py), each
scored by when its stream was last seen alive: a stream process marks all its streams alive in
one round trip."""

from __future__ import annotations

import uuid

import pytest
import redis

from api.stream_slots import StreamSlots

OWNERS = ["address-10.0.0.1", "seat-game-1"]


@pytest.fixture()
def slots(redis_url):
    connection = redis.Redis.from_url(redis_url)
    prefix = f"test-slots-{uuid.uuid4().hex}"
    yield StreamSlots(connection, prefix, cap=5, heartbeat=15.0), connection, prefix
    for key in connection.scan_iter(f"{prefix}:*"):
        connection.delete(key)


def test_refreshing_many_streams_marks_each_alive_under_each_owner_and_no_other(slots):
    # Given three open streams whose scores are an hour old
    slots_, connection, prefix = slots
    streams = [slots_.acquire(OWNERS) for _ in range(3)]
    keys = [f"{prefix}:{owner}" for owner in OWNERS]
    for key in keys:
        connection.zadd(key, dict.fromkeys(streams, 1.0), xx=True)
    # When two of them are refreshed together
    slots_.refresh_many([(stream, OWNERS) for stream in streams[:2]])
    # Then those two are alive now under both owners, and the third is as it was
    for key in keys:
        assert [connection.zscore(key, s) > 1.0 for s in streams] == [True, True, False]


def test_refreshing_a_released_stream_does_not_count_it_again(slots):
    slots_, connection, prefix = slots
    stream = slots_.acquire(OWNERS)
    slots_.release(stream, OWNERS)
    slots_.refresh_many([(stream, OWNERS)])
    assert all(connection.zscore(f"{prefix}:{owner}", stream) is None for owner in OWNERS)
