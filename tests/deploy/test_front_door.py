"""HAProxy's front door under `make run NODES=2` answers what it answers itself as the API would,
lets slow heads go, believes no client's X-Forwarded-For, and sends Pushpin the streams only."""

from __future__ import annotations

import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from api.server.pushpin_conf import PushpinSetup
from embedded.front_door import FrontDoor, missing_package
from embedded.ports import free_port
from tests.api.real_server import Served, gunicorn_serving, start_haproxy, stop_haproxy
from tests.deploy.heads import CASES, answer_to, exchange
from tests.deploy.launcher import Launched, launched

pytestmark = pytest.mark.skipif(missing_package() is not None, reason=str(missing_package()))
SEATS = [{"kind": "human", "name": "Ann"}, *[{"kind": "bot", "level": "basic"}] * 2]


@pytest.fixture(scope="module")
def front(private_database_url, redis_url, tmp_path_factory) -> Iterator[Launched]:
    data = tmp_path_factory.mktemp("front-door") / "data"
    environment = {
        "BODY_TIMEOUT_SECONDS": "1",
        # One limit that counts per client address, to tell which address the API believed.
        "RATE_LIMITS": "on",
        "RATE_LIMIT_UNRESOLVED_PER_ADDRESS": "5/second",
        "RATE_LIMIT_READS_PER_ADDRESS": "100000/second",
        "RATE_LIMIT_ACTIONS_PER_ADDRESS": "100000/second",
        "RATE_LIMIT_CREATE": "100000/minute",
    }
    with launched(private_database_url, redis_url, data, **environment) as run:
        yield run


@pytest.fixture(scope="module")
def alone(settings) -> Iterator[Served]:
    """The API as `make run` serves it with no proxy in front."""
    with gunicorn_serving(settings) as served:
        yield served


@pytest.mark.parametrize("case", list(CASES))
def test_a_head_at_the_apis_limits_gets_the_same_answer_from_the_front_door_as_from_the_api(
    front, alone, case
):
    through_the_front = answer_to(front.port, CASES[case])
    from_the_api_alone = answer_to(alone.port, CASES[case])
    assert through_the_front == from_the_api_alone
    assert through_the_front.status in (200, 400, 404, 414, 431)


def test_a_head_the_front_door_cannot_parse_is_a_400(front):
    raw = exchange(front.port, b"GET/ HTTP/1.1\r\nHost: x\r\n\r\n", timeout=10)
    assert raw.startswith(b"HTTP/1.1 400 ")


def test_a_head_not_complete_within_10_s_is_let_go_without_a_word(front):
    with socket.create_connection(("127.0.0.1", front.port), timeout=20) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        started = time.monotonic()
        assert sock.recv(1024) == b""  # closed, nothing said
        held = time.monotonic() - started
    assert 9.0 < held < 13.0


def test_a_body_not_complete_in_time_is_the_apis_408_problem(front):
    head = (
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    raw = exchange(front.port, head + b'{"type":', timeout=15)  # then nothing, for over 1 s
    assert raw.startswith(b"HTTP/1.1 408 ")
    assert b"https://cardroom.dev/problems/request-timeout" in raw


def test_a_body_of_which_nothing_comes_is_the_apis_408_problem_from_the_front_door(front):
    head = (
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    raw = exchange(front.port, head, timeout=15)  # HAProxy waits 10 s for a body to begin
    assert raw.startswith(b"HTTP/1.1 408 ")
    assert b"https://cardroom.dev/problems/request-timeout" in raw


def test_actions_reach_the_nodes_while_pushpin_is_frozen_and_only_the_streams_wait(front):
    pushpin = front.pushpin()
    assert pushpin is not None
    session = [pushpin, *pushpin.children(recursive=True)]
    for process in session:
        process.send_signal(signal.SIGSTOP)
    try:
        started = time.monotonic()
        created = requests.post(f"{front.url}/games", json=game_body(), timeout=5)
        assert created.status_code == 201
        game = created.json()["id"]
        assert requests.get(f"{front.url}/games/{game}", timeout=5).status_code == 200
        assert time.monotonic() - started < 3
        with pytest.raises(requests.Timeout):
            requests.get(f"{front.url}/games/{game}/events/stream", timeout=2)
    finally:
        for process in session:
            process.send_signal(signal.SIGCONT)


def test_a_forwarded_for_header_from_a_client_is_not_believed(front):
    # Given a limit of 5 unresolved credentials a second per client address
    statuses = []
    for i in range(12):  # When each request claims another address
        headers = {"Authorization": "Bearer nobody", "X-Forwarded-For": f"198.51.100.{i}"}
        statuses.append(requests.get(f"{front.url}/me/games", headers=headers, timeout=5))
    # Then they all count as the one address the front door saw
    assert [r.status_code for r in statuses[:5]] == [401] * 5
    assert 429 in [r.status_code for r in statuses[5:]]
    time.sleep(1.5)  # the window ends before the next test


def test_no_healthy_node_is_the_apis_503_with_retry_after(tmp_path: Path):
    nowhere = free_port()  # nothing listens here: neither node nor Pushpin
    pushpin = PushpinSetup(tmp_path, nowhere, "127.0.0.1:1", nowhere, "key")
    door = FrontDoor(free_port(), free_port(), pushpin, (nowhere,), max_connections=100)
    haproxy = start_haproxy(door)
    try:
        url = f"http://127.0.0.1:{door.port}"
        wait_for_listening(door.port)
        for path in ("/healthz", "/me/stream"):
            response = requests.get(f"{url}{path}", timeout=10)
            assert response.status_code == 503
            assert response.headers["Content-Type"] == "application/problem+json"
            assert response.headers["Retry-After"] == "1"
            assert response.json()["type"] == "https://cardroom.dev/problems/unavailable"
    finally:
        stop_haproxy(haproxy)


def test_a_thousand_heads_held_from_one_address_leave_another_clients_reads_answered(front):
    held = []
    try:
        for _ in range(1000):
            sock = socket.create_connection(("127.0.0.1", front.port), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # the head never ends
            held.append(sock)
        other = requests.Session()
        other.mount("http://", SourceAddressAdapter("127.0.0.2"))
        answers = [other.get(f"{front.url}/healthz", timeout=5).status_code for _ in range(50)]
        assert answers == [200] * 50
    finally:
        for sock in held:
            sock.close()


def game_body() -> dict:
    return {"type": "trick_and_snipers", "seats": SEATS, "options": {}}


def wait_for_listening(port: int) -> None:
    for _ in range(100):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("HAProxy did not listen")


class SourceAddressAdapter(requests.adapters.HTTPAdapter):
    """Connections from another loopback address: another client, as the front door sees it."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)
