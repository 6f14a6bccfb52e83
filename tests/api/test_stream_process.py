"""The stream processes (api/stream_server.py): gunicorn's workers hand them every open stream,
so the fan-out of commits runs beside the workers, not in the loops that serve actions. They
count in the server's capacity, are started again when they die, and are not needed for streams
to work. Most tests run one (STREAM_PROCESSES=1); one test runs two."""

from __future__ import annotations

import signal
import socket
import time

import psutil
import pytest
import redis as redis_lib

from tests.api.real_server import gunicorn_serving
from tests.api.test_server_stream_capacity import ask_for_stream, ended, open_streams
from tests.api.test_stream_server import new_table, open_stream, pass_cards, read_until

CAPACITY = 12  # spectators' streams
RESTARTED_WITHIN = 8.0  # first restart delay 0.5 s, plus its start (imports, the app)


def environment(**more: str) -> dict[str, str]:
    return {
        "WEB_WORKERS": "2",
        "MAX_STREAMS": str(CAPACITY + 1),  # one is kept for seats, whatever the share
        "STREAM_SEAT_SHARE": "0",
        "MAX_STREAMS_PER_CLIENT": "0",
        "RATE_LIMITS": "off",
        "STREAM_PROCESSES": "1",
        **more,
    }


def stream_processes(master: psutil.Process) -> list[psutil.Process]:
    found = []
    for child in master.children():
        try:
            if "api.stream_server" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:  # gone, or dead and not yet reaped
            continue
    return found


def stream_process(master: psutil.Process) -> psutil.Process | None:
    found = stream_processes(master)
    return found[0] if found else None


def wait_for_stream_process(master: psutil.Process, other_than: int = 0) -> psutil.Process:
    deadline = time.monotonic() + RESTARTED_WITHIN
    while time.monotonic() < deadline:
        found = stream_process(master)
        if found is not None and found.pid != other_than and _listening(found):
            return found
        time.sleep(0.1)
    raise AssertionError(f"no stream process within {RESTARTED_WITHIN} s")


def _listening(process: psutil.Process) -> bool:
    """Whether it has bound its handoff socket (psutil shows no state for Unix sockets)."""
    unix = process.net_connections(kind="unix")
    return any(str(c.laddr).endswith(".sock") for c in unix)


def holding(process: psutil.Process, port: int) -> int:
    """Established connections of `process` on the server's port."""
    return sum(
        1
        for c in process.net_connections(kind="tcp")
        if c.laddr.port == port and c.status == psutil.CONN_ESTABLISHED
    )


def holders(master: psutil.Process, sock: socket.socket) -> set[int]:
    """The server processes holding the other end of this client's connection."""
    client_port = sock.getsockname()[1]
    return {
        child.pid
        for child in master.children()
        for c in child.net_connections(kind="tcp")
        if c.raddr and c.raddr.port == client_port and c.status == psutil.CONN_ESTABLISHED
    }


@pytest.fixture()
def served(settings):
    with gunicorn_serving(settings, **environment()) as running:
        yield running, psutil.Process(running.process.pid)


def test_open_streams_live_in_the_stream_process_and_get_every_action(served):
    running, master = served
    streamer = wait_for_stream_process(master)
    game_id, tokens = new_table(running.port)
    statuses, socks = open_streams(running.port, game_id, 10)
    try:
        assert statuses == [200] * 10
        assert holding(streamer, running.port) == 10
        workers = [w for w in master.children() if w.pid != streamer.pid]
        assert [holding(w, running.port) for w in workers] == [0] * len(workers)
        response, _ = pass_cards(running.port, game_id, tokens[0])
        marker = f"id: {response.json()['version']}\n".encode()
        assert all(marker in read_until(sock, marker, 10) for sock in socks)
    finally:
        for sock in socks:
            sock.close()


def test_its_streams_count_in_the_servers_capacity(served):
    running, master = served
    wait_for_stream_process(master)
    game_id, _ = new_table(running.port)
    statuses, socks = open_streams(running.port, game_id, CAPACITY + 3)
    for sock in socks:
        sock.close()
    assert statuses == [200] * CAPACITY + [503] * 3


def test_a_killed_stream_process_is_started_again_and_its_streams_stop_counting(served):
    running, master = served
    victim = wait_for_stream_process(master)
    game_id, _ = new_table(running.port)
    statuses, socks = open_streams(running.port, game_id, CAPACITY)
    assert statuses == [200] * CAPACITY
    victim.send_signal(signal.SIGKILL)
    try:
        assert all(ended(sock, 2.0) for sock in socks)  # their clients resume elsewhere
        successor = wait_for_stream_process(master, other_than=victim.pid)
        again, more = open_streams(running.port, game_id, CAPACITY + 1)
        socks += more
        assert again == [200] * CAPACITY + [503]  # the dead one's streams count no more
        assert holding(successor, running.port) == CAPACITY
    finally:
        for sock in socks:
            sock.close()


def test_a_worker_serves_the_stream_itself_when_the_stream_process_does_not_answer(served):
    running, master = served
    hung = wait_for_stream_process(master)
    game_id, tokens = new_table(running.port)
    hung.send_signal(signal.SIGSTOP)  # alive, but it answers no handoff
    try:
        status, sock = ask_for_stream(running.port, game_id)  # after the handoff's timeout
    finally:
        hung.send_signal(signal.SIGCONT)  # it then finds the worker gone and lets go
    try:
        assert status == 200
        response, _ = pass_cards(running.port, game_id, tokens[0])
        marker = f"id: {response.json()['version']}\n".encode()
        assert marker in read_until(sock, marker, 10)
        time.sleep(0.5)  # the woken stream process found the worker gone and let go
        held_by = holders(master, sock)
        assert len(held_by) == 1 and hung.pid not in held_by  # a worker alone
    finally:
        sock.close()


def test_with_stream_process_off_the_workers_serve_streams(settings):
    with gunicorn_serving(settings, **environment(STREAM_PROCESSES="0")) as running:
        master = psutil.Process(running.process.pid)
        game_id, _ = new_table(running.port)
        status, sock = ask_for_stream(running.port, game_id)
        try:
            assert status == 200 and stream_process(master) is None
            assert sum(holding(w, running.port) for w in master.children()) == 1
        finally:
            sock.close()


def test_a_stream_over_http_1_0_is_the_body_up_to_the_close(served):
    running, master = served
    wait_for_stream_process(master)
    game_id, _ = new_table(running.port)
    sock = socket.create_connection(("127.0.0.1", running.port), timeout=10)
    try:
        sock.sendall(f"GET /games/{game_id}/events/stream HTTP/1.0\r\n\r\n".encode())
        data = read_until(sock, b"event: DeckSealed", 10)
    finally:
        sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and b"Transfer-Encoding" not in head
    assert body.startswith(b"retry: ")  # no chunk sizes: the body as it is


def test_a_shutdown_ends_the_stream_process_streams_cleanly_at_once(settings):
    with gunicorn_serving(settings, **environment()) as running:
        master = psutil.Process(running.process.pid)
        streamer = wait_for_stream_process(master)
        game_id, _ = new_table(running.port)
        socks = [open_stream(running.port, game_id) for _ in range(10)]
        assert holding(streamer, running.port) == 10
        for sock in socks:
            read_until(sock, b"event: DeckSealed", 10)
        started = time.monotonic()
        running.process.send_signal(signal.SIGTERM)
        endings = [read_until(sock, b"0\r\n\r\n", 12) for sock in socks]
        took = time.monotonic() - started
        running.process.wait(timeout=15)
    for sock in socks:
        sock.close()
    assert all(ending.endswith(b"0\r\n\r\n") for ending in endings)  # each body ended
    assert took < 5.0, f"streams ended {took:.1f} s after SIGTERM"
    assert not streamer.is_running() and running.process.returncode == 0


def test_a_stream_process_whose_server_was_killed_outright_stops_itself(settings):
    with gunicorn_serving(settings, **environment()) as running:
        master = psutil.Process(running.process.pid)
        streamer = wait_for_stream_process(master)
        workers = [w for w in master.children() if w.pid != streamer.pid]
        master.send_signal(signal.SIGKILL)
        running.process.wait(timeout=5)
        for worker in workers:  # gunicorn's workers notice their master's death by themselves
            worker.kill()
        gone, _ = psutil.wait_procs([streamer], timeout=5)
    assert gone == [streamer]


def test_each_games_streams_go_to_one_of_several_stream_processes(settings):
    with gunicorn_serving(
        settings, **environment(STREAM_PROCESSES="2", MAX_STREAMS="100")
    ) as running:
        master = psutil.Process(running.process.pid)
        deadline = time.monotonic() + RESTARTED_WITHIN
        while not (len(found := stream_processes(master)) == 2 and all(map(_listening, found))):
            assert time.monotonic() < deadline, "two stream processes did not start"
            time.sleep(0.1)
        # A game goes by its id: 8 games all went to one process once in 128 runs, 16 do once
        # in 32,768.
        games = [new_table(running.port)[0] for _ in range(16)]
        socks = {game: open_streams(running.port, game, 2)[1] for game in games}
        time.sleep(0.3)  # each worker has let go of what it handed off
        try:
            held = {game: set().union(*(holders(master, s) for s in socks[game])) for game in games}
            streamers = {p.pid for p in found}
            assert all(len(pids) == 1 and pids <= streamers for pids in held.values()), (
                held,
                streamers,
            )
            assert set().union(*held.values()) == streamers  # both are used
        finally:
            for opened in socks.values():
                for sock in opened:
                    sock.close()


def test_a_stream_process_ends_a_stream_on_time_at_stream_max_seconds(settings):
    environment_ = environment(STREAM_MAX_SECONDS="1", STREAM_HEARTBEAT_SECONDS="0.3")
    with gunicorn_serving(settings, **environment_) as running:
        master = psutil.Process(running.process.pid)
        streamer = wait_for_stream_process(master)
        game_id, _ = new_table(running.port)
        started = time.monotonic()
        sock = open_stream(running.port, game_id)
        try:
            assert holding(streamer, running.port) == 1
            body = read_until(sock, b"0\r\n\r\n", 5)
            took = time.monotonic() - started
        finally:
            sock.close()
    assert body.endswith(b"0\r\n\r\n") and b"event: DeckSealed" in body
    assert body.count(b": keep-alive") >= 2  # its heartbeats came meanwhile
    assert 0.9 <= took < 2.0, f"the stream ended after {took:.2f} s"


def test_a_stream_process_keeps_its_streams_counted_in_the_caps_per_client(settings):
    # Given caps per client, and a stream served by the stream process
    environment_ = environment(MAX_STREAMS_PER_CLIENT="5", STREAM_HEARTBEAT_SECONDS="0.3")
    with gunicorn_serving(settings, **environment_) as running:
        wait_for_stream_process(psutil.Process(running.process.pid))
        game_id, _ = new_table(running.port)
        redis = redis_lib.Redis.from_url(settings.redis_url)
        key = f"{settings.queue_name}-streams:address-127.0.0.1"
        redis.delete(key)
        sock = open_stream(running.port, game_id)
        try:
            read_until(sock, b"event: DeckSealed", 5)
            (slot, opened_at), *_ = redis.zrange(key, 0, -1, withscores=True)
            # When heartbeats pass
            time.sleep(1.0)
            # Then its slot was marked alive since, so it never goes stale while open
            assert redis.zscore(key, slot) > opened_at + 0.5
        finally:
            sock.close()
