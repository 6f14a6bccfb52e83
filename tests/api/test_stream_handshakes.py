"""Stream handshakes take turns in an API process, so an action never queues behind a crowd of
them (api/stream_handoff.py). A unit test of the middleware with a stand-in app: what it
throttles is the order of the calls, not anything of Postgres or Redis."""

from __future__ import annotations

import threading
import time

from api.stream_handoff import HANDSHAKES_AT_ONCE, StreamHandoffMiddleware

STREAM = "/games/0f8fad5b-d9cb-469f-a165-70867728950e/events/stream"
WAIT = 5.0


class HeldApp:
    """A WSGI app whose calls stay inside until `release` is set; counts who is inside."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.inside = 0
        self.most_inside = 0
        self.done = 0

    def __call__(self, environ: dict, start_response) -> list[bytes]:
        if environ["PATH_INFO"].endswith("/events/stream"):
            with self.lock:
                self.inside += 1
                self.most_inside = max(self.most_inside, self.inside)
            self.release.wait(WAIT)
            with self.lock:
                self.inside -= 1
        start_response("200 OK", [])
        with self.lock:
            self.done += 1
        return [b""]


def call(app: StreamHandoffMiddleware, path: str) -> threading.Thread:
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path}
    thread = threading.Thread(target=app, args=(environ, lambda *_: None), daemon=True)
    thread.start()
    return thread


def wait_until(condition, seconds: float = WAIT) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_a_crowd_of_stream_handshakes_runs_a_few_at_a_time():
    # Given a crowd of spectators asking for streams at once
    held = HeldApp()
    middleware = StreamHandoffMiddleware(held, paths=[])
    threads = [call(middleware, STREAM) for _ in range(3 * HANDSHAKES_AT_ONCE)]
    # When the first handshakes are under way
    assert wait_until(lambda: held.inside == HANDSHAKES_AT_ONCE)
    time.sleep(0.05)
    # Then the others wait their turn, and all are served once those end
    assert held.inside == HANDSHAKES_AT_ONCE
    held.release.set()
    for thread in threads:
        thread.join(WAIT)
    assert held.done == len(threads)
    assert held.most_inside == HANDSHAKES_AT_ONCE


def test_an_action_passes_while_every_handshake_turn_is_taken():
    # Given as many handshakes under way as may run at once, and more waiting
    held = HeldApp()
    middleware = StreamHandoffMiddleware(held, paths=[])
    for _ in range(HANDSHAKES_AT_ONCE + 2):
        call(middleware, STREAM)
    assert wait_until(lambda: held.inside == HANDSHAKES_AT_ONCE)
    # When an action and a game's read arrive
    others = [call(middleware, "/games/x/actions"), call(middleware, "/games/x")]
    # Then they are answered without waiting for the handshakes
    assert wait_until(lambda: held.done == len(others), seconds=1.0)
    held.release.set()
