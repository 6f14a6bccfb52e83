"""Two machines' worth on one: two APIs, each behind a front door of its own (HAProxy, with
Pushpin behind it for the streams), on one Postgres and Redis, with one worker publishing to
both Pushpins (docs/scaling.md, "More than one machine")."""

from __future__ import annotations

import dataclasses
import random
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass

import psutil
import pytest

from testing.sse import Stream
from tests.api.real_server import fronting, gunicorn_serving
from tests.api.test_event_stream import act, game_state, new_game
from tests.service import start_worker, stop_worker

HUMANS = [{"kind": "human", "name": name} for name in ("Ana", "Bo", "Cy")]
ENVIRONMENT = {"RATE_LIMITS": "off", "STREAM_HEARTBEAT_SECONDS": "1"}


@dataclass
class Node:
    url: str  # its front door's
    pushpin: subprocess.Popen


@pytest.fixture(scope="module")
def nodes(settings, tmp_path_factory) -> Iterator[list[Node]]:
    settings = dataclasses.replace(settings, queue_name=f"{settings.queue_name}-nodes")
    with ExitStack() as stack:
        found, setups = [], []
        for name in ("a", "b"):
            api = stack.enter_context(
                gunicorn_serving(settings, TRUSTED_PROXIES="1", **ENVIRONMENT)
            )
            directory = tmp_path_factory.mktemp(f"pushpin-{name}")
            front = stack.enter_context(fronting(settings, api, directory))
            found.append(Node(front.url, front.pushpin))
            setups.append(front.setup)
        urls = ",".join(setup.control_url for setup in setups)
        worker = start_worker(settings, PUSHPIN_URLS=urls, **ENVIRONMENT)
        stack.callback(stop_worker, worker)
        yield found


def kill_with_children(pid: int) -> None:
    """SIGKILL, to a process and all it started (Pushpin's runner starts its services in
    process groups of their own)."""
    process = psutil.Process(pid)
    for each in [*process.children(recursive=True), process]:
        try:
            each.kill()
        except psutil.NoSuchProcess:  # it ended as the others did
            pass
    psutil.wait_procs([process], timeout=5)


def versions(stream: Stream, until: int) -> list[int]:
    seen = []
    for event in stream.events():
        seen.append(int(event["id"]))
        if seen[-1] >= until:
            break
    return seen


def test_a_stream_through_one_node_sees_every_event_of_actions_sent_through_the_other(nodes):
    a, b = nodes
    created = new_game(b.url, HUMANS)
    tokens = [t["token"] for t in created["tokens"]]
    stream = Stream(f"{a.url}/games/{created['id']}/events/stream")
    rng = random.Random(5)
    for seat in range(3):  # the three passes, through node B
        act(b.url, created["id"], tokens[seat], rng)
    version = game_state(b.url, created["id"])["version"]
    seen = versions(stream, version)
    stream.close()
    assert seen == list(range(1, version + 1))


def test_a_client_of_a_killed_pushpin_resumes_on_the_other_node_with_nothing_lost(nodes):
    a, b = nodes
    created = new_game(b.url, HUMANS)
    tokens = [t["token"] for t in created["tokens"]]
    stream = Stream(f"{a.url}/games/{created['id']}/events/stream")
    first = versions(stream, created["version"])
    rng = random.Random(6)
    # When Pushpin A dies, and the game moves on while its client is away
    kill_with_children(a.pushpin.pid)  # its runner, condure, zurl, proxy and handler
    for seat in range(3):
        act(b.url, created["id"], tokens[seat], rng)
    version = game_state(b.url, created["id"])["version"]
    # Then the client, reconnecting to B from where it was, gets every event once, in order
    resumed = Stream(
        f"{b.url}/games/{created['id']}/events/stream", headers={"Last-Event-ID": str(first[-1])}
    )
    rest = versions(resumed, version)
    resumed.close()
    assert first + rest == list(range(1, version + 1))
