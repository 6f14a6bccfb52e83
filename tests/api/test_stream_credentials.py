"""A stream belongs to the credential that opened it: rotating the token, leaving, or being
removed after timeouts ends its streams before any later event is sent on them; a ticket minted
with the old token is void; and the caps count streams per credential, so a leaked token's
streams cannot lock its owner out. Each test runs against the app on a threaded server and
against gunicorn with its stream process (the `server` fixture of test_event_stream)."""

from __future__ import annotations

import dataclasses
import http.client
import random
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import requests

from testing.sse import Stream
from tests.api import test_event_stream
from tests.api.real_server import gunicorn_serving, pushpin_serving
from tests.api.test_event_stream import (
    HEARTBEAT,
    act,
    game_state,
    new_game,
    wait_until,
)

server = test_event_stream.server  # gunicorn serving the streams, and Pushpin in front

HUMANS = [{"kind": "human", "name": name} for name in ("Ana", "Bo", "Cy")]


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def ticket(server_url: str, game_id: str, token: str) -> str:
    response = requests.post(
        f"{server_url}/games/{game_id}/stream-ticket", headers=auth(token), timeout=10
    )
    assert response.status_code == 201, response.text
    return response.json()["ticket"]


def rotate(server_url: str, game_id: str, seat: int, token: str) -> str:
    response = requests.post(
        f"{server_url}/games/{game_id}/seats/{seat}/token", headers=auth(token), timeout=10
    )
    assert response.status_code == 201, response.text
    return response.json()["token"]


def versions_until_end(stream: Stream, within: float = 10.0) -> list[int]:
    """The versions the stream sends until the server ends it; fails if it has not ended
    `within` seconds from now (its heartbeats keep the connection busy meanwhile)."""
    deadline, versions = time.monotonic() + within, []
    for message in stream.messages():
        if "id" in message:
            versions.append(int(message["id"]))
        assert time.monotonic() < deadline, f"the stream did not end (sent {versions})"
    return versions


def opened(url: str, headers: dict | None = None) -> Stream:
    stream = Stream(url, headers=headers, timeout=10.0)
    assert stream.response.status == 200, stream.response.read()
    return stream


def test_rotating_a_token_ends_its_streams_before_anything_more_is_sent(server):
    # Given three streams of seat 0's token: by header, by ?access_token=, and a ticket
    created = new_game(server, HUMANS)
    game_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    url = f"{server}/games/{game_id}/events/stream"
    by_header = opened(url, auth(tokens[0]))
    by_query = opened(f"{url}?access_token={tokens[0]}")
    unused_ticket = ticket(server, game_id, tokens[0])
    at_rotation = game_state(server, game_id)["version"]
    # When the owner rotates the token, and the other seats pass (seat 0 then receives cards)
    new_token = rotate(server, game_id, 0, tokens[0])
    rng = random.Random(3)
    for seat in (1, 2):
        act(server, game_id, tokens[seat], rng)
    act(server, game_id, new_token, rng)
    # Then both streams end having sent nothing after the rotation
    for stream in (by_header, by_query):
        assert all(v <= at_rotation for v in versions_until_end(stream))
        stream.close()
    # And the ticket minted before is void, while the new token streams
    refused = requests.get(f"{url}?ticket={unused_ticket}", timeout=10)
    assert refused.status_code == 401
    fresh = opened(url, auth(new_token))
    assert fresh.response.status == 200
    fresh.close()


def test_a_seat_that_leaves_sees_nothing_of_the_bot_that_plays_it(server):
    # Given a dealt table and a stream of seat 1's token
    created = new_game(server, HUMANS)
    game_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    stream = opened(f"{server}/games/{game_id}/events/stream", auth(tokens[1]))
    # When seat 1 leaves (a bot plays it on) and the others pass, so cards reach its bot
    left = requests.post(
        f"{server}/games/{game_id}/seats/1/leave", headers=auth(tokens[1]), timeout=10
    )
    assert left.status_code == 201, left.text
    at_leaving = game_state(server, game_id)["version"]
    rng = random.Random(4)
    for seat in (0, 2):
        act(server, game_id, tokens[seat], rng)
    # Then its stream has ended without any event from the leave on
    assert all(v < at_leaving for v in versions_until_end(stream))
    stream.close()


def test_a_seat_removed_after_its_timeouts_has_its_streams_ended(server, worker):
    # Given a timed table whose seat 0 never acts, and a stream of seat 0's token
    options = {"turn_seconds": 5, "max_timeouts": 1}
    created = new_game(server, HUMANS, options)
    game_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    stream = opened(f"{server}/games/{game_id}/events/stream", auth(tokens[0]))
    rng = random.Random(5)
    for seat in (1, 2):
        act(server, game_id, tokens[seat], rng)
    # When its turn runs out and it is treated as left
    state = wait_until(server, game_id, lambda g: g["seats"][0]["kind"] == "bot", timeout=20)
    # Then its stream ended, having sent nothing from the timeout on
    sent = versions_until_end(stream)
    stream.close()
    assert sent and max(sent) < state["version"]
    events = requests.get(f"{server}/games/{game_id}/events", timeout=10).json()["events"]
    timed_out = next(e["version"] for e in events if e["type"] == "TurnTimedOut")
    assert max(sent) < timed_out


@pytest.fixture(scope="module", params=["embedded", "pushpin"])
def capped(request, settings, tmp_path_factory) -> Iterator[str]:
    """A server allowing 2 streams per client address and per credential, on both paths, with
    stream counts of its own."""
    settings = dataclasses.replace(settings, queue_name=f"{settings.queue_name}-capped")
    environment = {"STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT), "MAX_STREAMS_PER_CLIENT": "2"}
    if request.param == "embedded":
        with gunicorn_serving(settings, RATE_LIMITS="off", **environment) as served:
            yield f"http://127.0.0.1:{served.port}"
        return
    directory = tmp_path_factory.mktemp("pushpin")
    with pushpin_serving(settings, directory, RATE_LIMITS="off", **environment) as front:
        yield front.url


def stream_status(url: str, token: str, source: str) -> int:
    """The status of a stream opened from the address `source` (closed at once)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=10, source_address=(source, 0)
    )
    try:
        conn.request("GET", parts.path, headers=auth(token))
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_leaked_tokens_streams_never_lock_its_owner_out(capped):
    # Given a holder of seat 0's leaked token with as many streams as the cap allows
    created = new_game(capped, HUMANS)
    game_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    url = f"{capped}/games/{game_id}/events/stream"
    held = [opened(url, auth(tokens[0])) for _ in range(2)]
    assert stream_status(url, tokens[0], "127.0.0.3") == 429  # the credential's cap
    # When the owner rotates the token and opens a stream from another address
    new_token = rotate(capped, game_id, 0, tokens[0])
    started = time.monotonic()
    status = stream_status(url, new_token, "127.0.0.2")
    # Then it is served at once, and the leaked token's streams have ended
    assert status == 200 and time.monotonic() - started < 2.0
    for stream in held:
        versions_until_end(stream)
        stream.close()
