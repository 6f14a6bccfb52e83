"""Slow request bodies, sent as raw bytes to a real gunicorn (as `make run` starts it): a body
that trickles in holds no game lock and no pool connection, and one that does not arrive in
BODY_TIMEOUT_SECONDS is a 408 on a closed connection."""

from __future__ import annotations

import json
import random
import socket
import statistics
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
import requests

from api import MAX_BODY_BYTES
from domain.kit.templates import action_from_template
from tests.api.play import auth, create_game, humans, tokens_of
from tests.api.real_server import Served, gunicorn_serving
from tests.api.test_chunked_bodies import Answer, parse

BODY_TIMEOUT = 2.0
# Fewer connections per process than the slow bodies sent: holding one each would take them all.
POOL_SIZE = 4


@pytest.fixture(scope="module")
def server(settings) -> Iterator[Served]:
    with gunicorn_serving(
        settings,
        WEB_WORKERS="2",
        BODY_TIMEOUT_SECONDS=str(BODY_TIMEOUT),
        DB_POOL_SIZE=str(POOL_SIZE),
        RATE_LIMITS="off",
    ) as served:
        yield served


@contextmanager
def slow_body(
    served: Served, path: str, token: str | None = None, sent: bytes = b"{", declared: int = 50
) -> Iterator[socket.socket]:
    """A POST that declares `declared` bytes of body and sends only `sent`, left open."""
    head = f"POST {path} HTTP/1.1\r\nHost: cardroom\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    head += f"Content-Length: {declared}\r\n\r\n"
    with socket.create_connection(served.address, timeout=BODY_TIMEOUT + 10) as sock:
        sock.sendall(head.encode() + sent)
        yield sock


def answer_of(sock: socket.socket) -> Answer:
    """The next answer on the socket."""
    received = b""
    while b"\r\n\r\n" not in received or len(received) < _length_of(received):
        data = sock.recv(65536)
        if not data:
            break
        received += data
    return parse(received)


def closed_after(sock: socket.socket, answer: Answer) -> bool:
    """Whether the server closed the connection after its answer (within a second)."""
    sock.settimeout(1)
    try:
        return answer.after == b"" and sock.recv(1) == b""
    except TimeoutError:
        return False


def _length_of(received: bytes) -> int:
    head, _, _ = received.partition(b"\r\n\r\n")
    for line in head.decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            return len(head) + 4 + int(value)
    return len(received) + 1


def first_legal(server: Served, game_id: str, tokens: dict[int, str]) -> tuple[int, dict]:
    """A seat that may act now, and an action it may send."""
    for seat, token in tokens.items():
        game = requests.get(url(server, f"/games/{game_id}"), headers=auth(token)).json()
        if game["you"]["legal_actions"]:
            return seat, action_from_template(game["you"]["legal_actions"][0], random.Random(0))
    raise AssertionError("no seat may act")


def url(server: Served, path: str) -> str:
    return f"http://{server.host}:{server.port}{path}"


def test_a_slow_body_never_holds_up_another_seats_action(server, client):
    # Given a table of people, and one of them sending an action's body one byte and no more
    created = create_game(client, "trick_and_snipers", humans(3))
    game_id, tokens = created["id"], tokens_of(created)
    seat, action = first_legal(server, game_id, tokens)
    slow_seat = next(s for s in tokens if s != seat)
    with slow_body(server, f"/games/{game_id}/actions", tokens[slow_seat]) as slow:
        time.sleep(0.3)  # the server is waiting on the slow body now
        # When another seat acts
        started = time.monotonic()
        response = requests.post(
            url(server, f"/games/{game_id}/actions"), json=action, headers=auth(tokens[seat])
        )
        # Then it is answered at once, and the slow one gets its 408 in time, connection closed
        assert response.status_code == 201, response.text
        assert time.monotonic() - started < 1.0
        answer = answer_of(slow)
        assert answer.status == 408 and answer.problem()["code"] == "request-timeout"
        assert closed_after(slow, answer)


def test_thirty_slow_bodies_leave_other_clients_reads_fast(server, client):
    # Given thirty slow action bodies on the attacker's own tables, spread over both processes
    games = [create_game(client, "st_patrick", humans(3)) for _ in range(10)]
    others = create_game(client, "ouroboros_trick", humans(3))
    with ExitStack() as stack:
        for created in games:
            for token in tokens_of(created).values():
                path = f"/games/{created['id']}/actions"
                stack.enter_context(slow_body(server, path, token))
        time.sleep(0.3)
        # When other clients read, and ask whether the server is ready
        times, statuses = [], []
        for _ in range(20):
            for path in (f"/games/{others['id']}", "/readyz"):
                started = time.monotonic()
                statuses.append(requests.get(url(server, path), timeout=10).status_code)
                times.append(time.monotonic() - started)
    # Then every answer is a 200, and fast
    assert set(statuses) == {200}
    assert statistics.median(times) < 0.1 and max(times) < 1.0, times


def test_a_body_that_never_comes_is_dropped_on_time(server, client):
    # Given a game, and an action whose body never comes (not even its first byte)
    created = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(created)[0]
    started = time.monotonic()
    with slow_body(server, f"/games/{created['id']}/actions", token, sent=b"") as slow:
        # Then after BODY_TIMEOUT_SECONDS it is a 408 problem, and the connection is closed
        answer = answer_of(slow)
        waited = time.monotonic() - started
        assert answer.status == 408 and answer.problem()["code"] == "request-timeout"
        assert answer.problem()["status"] == 408
        assert BODY_TIMEOUT - 0.1 <= waited < BODY_TIMEOUT + 1.0
        assert closed_after(slow, answer)


def test_a_declared_body_over_the_limit_is_refused_before_it_is_sent(server):
    started = time.monotonic()
    with slow_body(server, "/games", sent=b"", declared=MAX_BODY_BYTES + 1) as sock:
        answer = answer_of(sock)
    assert answer.status == 413 and answer.problem()["code"] == "payload-too-large"
    assert time.monotonic() - started < 1.0


def test_a_chunk_announced_over_the_limit_is_refused_at_once(server):
    # Given a chunked body whose first chunk announces a megabyte, and none of its bytes
    head = (
        "POST /games HTTP/1.1\r\nHost: cardroom\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    started = time.monotonic()
    with socket.create_connection(server.address, timeout=BODY_TIMEOUT + 10) as sock:
        sock.sendall(head.encode() + b"100000\r\n{")
        answer = answer_of(sock)
        # the answer is a 413 at once, not after the megabyte or the body's timeout
        assert answer.status == 413 and answer.problem()["code"] == "payload-too-large"
        assert time.monotonic() - started < 1.0
        assert json.loads(answer.body)["detail"].startswith("the body is over")
        assert closed_after(sock, answer)
