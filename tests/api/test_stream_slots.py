"""Open streams are counted in Redis sorted sets (api/streams/slots.py), each stream scored by
when it stops counting unless renewed: per client address and credential, and in all."""

from __future__ import annotations

import time
import uuid

import pytest
import redis

from api.streams.slots import RENEWAL_BATCH_SECONDS, StreamSlots

OWNERS = ["address-10.0.0.1", "credential-abc"]


@pytest.fixture()
def connection(redis_url):
    return redis.Redis.from_url(redis_url)


def counted(connection, per_client: int = 2, capacity: int = 100, share: float = 0.1):
    return StreamSlots(connection, f"test-slots-{uuid.uuid4().hex}", per_client, capacity, share)


def test_a_client_at_its_cap_is_refused_until_one_of_its_streams_ends(connection):
    slots = counted(connection, per_client=2)
    first, _ = slots.acquire(OWNERS, True, 60), slots.acquire(OWNERS, True, 60)
    assert slots.acquire(OWNERS, True, 60) == "client"
    slots.release(first)  # type: ignore[arg-type]
    assert not isinstance(slots.acquire(OWNERS, True, 60), str)


def test_spectators_never_take_the_share_kept_for_seats(connection):
    slots = counted(connection, per_client=0, capacity=4, share=0.5)
    watching = [slots.acquire([f"address-{n}"], False, 60) for n in range(3)]
    assert watching[2] == "server" and not isinstance(watching[1], str)
    assert not isinstance(slots.acquire(["address-9"], True, 60), str)
    assert slots.open_streams() == (1, 2)


def test_a_stream_no_longer_renewed_stops_counting_when_its_time_is_past(connection):
    slots = counted(connection, per_client=1)
    renewed, lapsing = (
        slots.acquire(["address-a"], True, 0.5),
        slots.acquire(["address-b"], True, 0.5),
    )
    slots.renew(renewed, 60)  # type: ignore[arg-type]
    time.sleep(0.6)
    assert slots.acquire(["address-a"], True, 60) == "client"
    assert not isinstance(slots.acquire(["address-b"], True, 60), str)
    assert isinstance(lapsing, object)


def test_renewals_close_together_are_written_together_and_none_is_lost(connection):
    slots = counted(connection, per_client=0, capacity=100)
    streams = [slots.acquire([f"address-{n}"], True, 2.5) for n in range(3)]
    for slot in streams:  # the first is written at once, the other two wait for the next
        slots.renew(slot, 60)  # type: ignore[arg-type]
    time.sleep(RENEWAL_BATCH_SECONDS + 0.1)
    slots.renew(streams[0], 60)  # type: ignore[arg-type]
    time.sleep(1.6)  # past the 2.5 s they were opened for
    assert slots.open_streams() == (3, 0)


def test_a_stream_released_while_its_renewal_waits_stays_released(connection):
    slots = counted(connection, per_client=0, capacity=100)
    first, second = slots.acquire(["address-a"], True, 60), slots.acquire(["address-b"], True, 60)
    slots.renew(first, 60)  # type: ignore[arg-type]
    slots.renew(second, 60)  # type: ignore[arg-type]
    slots.release(second)  # type: ignore[arg-type]
    time.sleep(RENEWAL_BATCH_SECONDS + 0.1)
    slots.renew(first, 60)  # type: ignore[arg-type]
    assert slots.open_streams() == (1, 0)
