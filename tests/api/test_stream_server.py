"""The server `make run` and Docker start (gunicorn with gevent workers, api/gunicorn_conf.py):
an open stream holds no thread, and a shutdown ends every stream cleanly at once."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import requests

from tests.api.real_server import gunicorn_serving

STREAMS = 300  # more than the 128 threads a gthread worker had, each of which a stream held


@contextmanager
def gevent_server(settings, **environment: str) -> Iterator[tuple[subprocess.Popen, int]]:
    with gunicorn_serving(settings, RATE_LIMITS="off", **environment) as served:
        yield served.process, served.port


def open_stream(port: int, game_id: str) -> socket.socket:
    """A spectator's stream over HTTP/1.1 (chunked), its headers read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    request = f"GET /games/{game_id}/events/stream HTTP/1.1\r\nHost: test\r\n\r\n"
    sock.sendall(request.encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # a byte at a time: the body stays unread
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 200"), head[:100]
    return sock


def read_until(sock: socket.socket, marker: bytes, timeout: float) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


@pytest.fixture(scope="module")
def one_worker(settings):
    with gevent_server(
        settings, WEB_WORKERS="1", MAX_STREAMS=str(STREAMS + 50), MAX_STREAMS_PER_CLIENT="0"
    ) as running:
        yield running


def new_table(port: int) -> tuple[str, list[str]]:
    seats = [{"kind": "human", "name": f"p{i}"} for i in range(3)]
    body = {"type": "trick_and_snipers", "seats": seats}
    created = requests.post(f"http://127.0.0.1:{port}/games", json=body, timeout=10).json()
    return created["id"], [t["token"] for t in created["tokens"]]


def pass_cards(port: int, game_id: str, token: str) -> tuple[requests.Response, float]:
    url = f"http://127.0.0.1:{port}/games/{game_id}"
    auth = {"Authorization": f"Bearer {token}"}
    hand = requests.get(url, headers=auth, timeout=10).json()["you"]["hand"]
    started = time.perf_counter()
    body = {"type": "pass_cards", "cards": hand[:4]}
    response = requests.post(f"{url}/actions", json=body, headers=auth, timeout=10)
    return response, time.perf_counter() - started


def test_one_worker_holds_hundreds_of_streams_and_still_serves_actions(one_worker):
    _, port = one_worker
    game_id, tokens = new_table(port)
    streams = [open_stream(port, game_id) for _ in range(STREAMS)]
    try:
        response, seconds = pass_cards(port, game_id, tokens[0])
        assert response.status_code == 201, response.text
        assert seconds < 2.0, f"an action took {seconds:.2f} s with {STREAMS} streams open"
        version = response.json()["version"]
        for sock in streams:  # every stream gets the pass
            assert f"id: {version}\n".encode() in read_until(sock, f"id: {version}\n".encode(), 10)
    finally:
        for sock in streams:
            sock.close()


def test_a_shutdown_ends_every_open_stream_cleanly_before_the_graceful_timeout(settings):
    with gevent_server(settings, WEB_WORKERS="1", MAX_STREAMS_PER_CLIENT="0") as (server, port):
        game_id, _ = new_table(port)
        streams = [open_stream(port, game_id) for _ in range(20)]
        for sock in streams:
            read_until(sock, b"event: DeckSealed", 10)
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        endings = [read_until(sock, b"0\r\n\r\n", 12) for sock in streams]
        took = time.monotonic() - started
        server.wait(timeout=15)
    # The last chunk of a chunked body: the server ended each response, nothing was cut (at
    # the graceful timeout, 10 s, gunicorn would cut them without it). Usually within 0.1 s.
    assert all(ending.endswith(b"0\r\n\r\n") for ending in endings)
    assert took < 9.0, f"streams ended {took:.1f} s after SIGTERM (graceful timeout is 10 s)"
    assert server.returncode == 0


def try_stream(port: int, path: str, client: str) -> tuple[int, socket.socket]:
    """A stream asked for by `client` (the address a trusted proxy in front names)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    request = f"GET {path} HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: {client}\r\n\r\n"
    sock.sendall(request.encode())
    head = read_until(sock, b"\r\n\r\n", 10)
    return int(head.split(b" ", 2)[1]), sock


def test_one_client_opening_hundreds_of_streams_does_not_lock_a_player_out(settings):
    """The probe's attack: 250 spectator streams from one address in a burst, then a seat."""
    server = gevent_server(settings, WEB_WORKERS="1", MAX_STREAMS="200", TRUSTED_PROXIES="1")
    with server as (_, port):
        game_id, tokens = new_table(port)
        path = f"/games/{game_id}/events/stream"
        tried = [try_stream(port, path, "203.0.113.9") for _ in range(250)]
        statuses = [status for status, _ in tried]
        player = f"{path}?access_token={tokens[0]}"
        status, seat_stream = try_stream(port, player, "198.51.100.7")
        for _, sock in [*tried, (status, seat_stream)]:
            sock.close()
    assert statuses.count(200) == 20 and set(statuses[20:]) == {429}  # MAX_STREAMS_PER_CLIENT
    assert status == 200


def test_slow_clients_hold_no_worker_and_others_are_served_at_once(one_worker):
    """300 sockets trickle one header line at a time and never finish their request."""
    _, port = one_worker
    slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(300)]
    try:
        for line in (b"GET /healthz HTTP/1.1\r\n", b"Host: slow\r\n", b"X-Slow: 1\r\n"):
            for sock in slow:
                sock.sendall(line)
            started = time.perf_counter()
            response = requests.get(f"http://127.0.0.1:{port}/game-types", timeout=5)
            took = time.perf_counter() - started
            assert response.status_code == 200
            assert took < 1.0, f"a request took {took:.2f} s beside 300 slow clients"
            time.sleep(0.5)
    finally:
        for sock in slow:
            sock.close()
