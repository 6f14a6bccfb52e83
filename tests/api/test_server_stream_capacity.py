"""MAX_STREAMS is the capacity of one server, not of each of its API processes: the kernel hands
connections to gunicorn's workers unevenly, and a stream must not be refused by a full worker
while the server holds fewer than its capacity (api/stream_capacity.py)."""

from __future__ import annotations

import signal
import socket
import time

import psutil
import pytest

from tests.api.real_server import gunicorn_serving
from tests.api.test_stream_server import new_table, read_until

CAPACITY = 30  # spectators' streams: MAX_STREAMS keeps one more for seats (at least one is kept)


@pytest.fixture()
def two_workers(settings):
    environment = {
        "WEB_WORKERS": "2",
        "MAX_STREAMS": str(CAPACITY + 1),
        "STREAM_SEAT_SHARE": "0",
        "MAX_STREAMS_PER_CLIENT": "0",
        "RATE_LIMITS": "off",
        # The workers serve the streams themselves, as when the stream process is down
        # (tests/api/test_stream_process.py has its own count).
        "STREAM_PROCESSES": "0",
    }
    with gunicorn_serving(settings, **environment) as served:
        yield served


def ask_for_stream(port: int, game_id: str) -> tuple[int, socket.socket]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /games/{game_id}/events/stream HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    head = read_until(sock, b"\r\n\r\n", 10)
    return int(head.split(b" ", 2)[1]), sock


def open_streams(port: int, game_id: str, count: int) -> tuple[list[int], list[socket.socket]]:
    tried = [ask_for_stream(port, game_id) for _ in range(count)]
    return [status for status, _ in tried], [sock for _, sock in tried]


def workers_holding(server: psutil.Process, port: int) -> dict[int, int]:
    """Each worker's established connections on the server's port."""
    held = {}
    for worker in server.children():
        connections = worker.net_connections(kind="tcp")
        held[worker.pid] = sum(
            1 for c in connections if c.laddr.port == port and c.status == psutil.CONN_ESTABLISHED
        )
    return held


def ended(sock: socket.socket, timeout: float) -> bool:
    """Whether the server closed this stream within `timeout` (its worker died)."""
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


def test_streams_up_to_the_servers_capacity_open_whichever_worker_takes_them(two_workers):
    game_id, _ = new_table(two_workers.port)
    statuses, socks = open_streams(two_workers.port, game_id, CAPACITY + 5)
    try:
        assert statuses[:CAPACITY] == [200] * CAPACITY
        assert statuses[CAPACITY:] == [503] * 5  # past the server's capacity, not a worker's
    finally:
        for sock in socks:
            sock.close()


def test_a_killed_workers_streams_stop_counting_against_the_capacity(two_workers):
    port = two_workers.port
    game_id, _ = new_table(port)
    statuses, socks = open_streams(port, game_id, CAPACITY)
    try:
        assert statuses == [200] * CAPACITY
        held = workers_holding(psutil.Process(two_workers.process.pid), port)
        victim = max(held, key=held.__getitem__)
        psutil.Process(victim).send_signal(signal.SIGKILL)
        lost = [sock for sock in socks if ended(sock, 0.5)]
        assert len(lost) == held[victim] > 0
        reopened: list[socket.socket] = []
        deadline = time.monotonic() + 15
        while len(reopened) < len(lost) and time.monotonic() < deadline:
            status, sock = ask_for_stream(port, game_id)  # the master restarts the worker
            (reopened if status == 200 else socks).append(sock)
            if status != 200:
                time.sleep(0.2)
        socks += reopened
        assert len(reopened) == len(lost)
        status, sock = ask_for_stream(port, game_id)
        socks.append(sock)
        assert status == 503  # and the capacity is whole again, no more
    finally:
        for sock in socks:
            sock.close()
