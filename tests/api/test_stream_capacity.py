"""What lets one server hold many streams: one store read per commit for every stream of a game,
seats kept ahead of spectators, and streams that end exactly when they should."""

from __future__ import annotations

import dataclasses
import random
import time

import requests

from testing.sse import Stream
from tests.api.real_server import pushpin_serving
from tests.api.test_event_stream import HEARTBEAT, act, new_game, serving

HUMANS = [{"kind": "human", "name": name} for name in ("Ana", "Bo", "Cy")]


def test_every_stream_of_a_game_gets_each_event_from_one_shared_read(settings):
    many = dataclasses.replace(
        settings, stream_heartbeat_seconds=HEARTBEAT, max_streams_per_client=0
    )
    with serving(many) as url:
        created = new_game(url, HUMANS)
        tokens = [t["token"] for t in created["tokens"]]
        streams = [Stream(f"{url}/games/{created['id']}/events/stream") for _ in range(12)]
        for stream in streams:  # each has read the log so far, and waits
            assert [m["id"] for m in _events(stream, created["version"])]
        queries = serving.app.extensions["cardroom"].queries
        reads = _count_calls(queries, "events_then_game")
        moves = 3
        rng = random.Random(4)
        for seat in range(moves):  # the three passes
            act(url, created["id"], tokens[seat], rng)
        version = requests.get(f"{url}/games/{created['id']}", timeout=5).json()["version"]
        for stream in streams:
            got = [int(m["id"]) for m in _events(stream, version)]
            assert got == list(range(created["version"] + 1, version + 1))
            stream.close()
        # Without sharing: 12 streams x 3 commits = 36 reads at least.
        assert reads() <= 2 * moves, f"{reads()} store reads for {moves} commits"


def test_spectators_never_take_the_streams_kept_for_seats(settings):
    small = dataclasses.replace(
        settings,
        max_streams=4,
        stream_seat_share=0.5,
        max_streams_per_client=0,
        queue_name=f"{settings.queue_name}-small",
    )
    with serving(small) as url:
        created = new_game(url, HUMANS)
        path = f"{url}/games/{created['id']}/events/stream"
        watching = [Stream(path) for _ in range(2)]
        refused = requests.get(path, timeout=5)
        assert refused.status_code == 503 and refused.headers["Retry-After"]
        token = created["tokens"][0]["token"]
        seated = Stream(path, headers={"Authorization": f"Bearer {token}"})
        assert _events(seated, created["version"])  # a seat still gets its stream
        for stream in [*watching, seated]:
            stream.close()


def test_a_stream_ends_when_its_time_is_up_not_at_its_next_heartbeat(settings):
    timed = dataclasses.replace(settings, stream_heartbeat_seconds=15.0, stream_max_seconds=1.0)
    with serving(timed) as url:
        created = new_game(url, HUMANS)
        started = time.monotonic()
        stream = Stream(f"{url}/games/{created['id']}/events/stream")
        list(stream.messages())  # until the server ends it
        lasted = time.monotonic() - started
        stream.close()
    assert 0.9 <= lasted < 2.0, f"the stream lasted {lasted:.2f} s"


def _events(stream: Stream, through: int) -> list[dict]:
    """The stream's events up to version `through` (reading no further)."""
    got = []
    for message in stream.messages():
        if "id" in message:
            got.append(message)
            if int(message["id"]) >= through:
                break
    return got


def _count_calls(target: object, name: str):
    """Counts calls of one method of a real object (it still does its work)."""
    calls = []
    original = getattr(target, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    setattr(target, name, counted)
    return lambda: len(calls)


def test_a_stream_pushpin_holds_ends_when_its_time_is_up(settings, tmp_path):
    # Given Pushpin in front, and streams that may last two seconds
    environment = {"STREAM_HEARTBEAT_SECONDS": "15", "STREAM_MAX_SECONDS": "2"}
    with pushpin_serving(settings, tmp_path, RATE_LIMITS="off", **environment) as front:
        created = new_game(front.url, HUMANS)
        started = time.monotonic()
        stream = Stream(f"{front.url}/games/{created['id']}/events/stream")
        # When nothing happens at the table
        list(stream.messages())  # until the publisher's close ends it
        lasted = time.monotonic() - started
        stream.close()
    # Then the stream ends on time (the publisher looks every second), not at a heartbeat
    assert 1.9 <= lasted < 4.0, f"the stream lasted {lasted:.2f} s"
