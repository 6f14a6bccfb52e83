"""A real webhook receiver for the tests: a small threaded HTTP server on 127.0.0.1 that
verifies every delivery's signature with the `standardwebhooks` package, answers as a test
plans (a status, or no answer until the sender gives up), and records what it got."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

HANG = "hang"  # a planned answer: none, for longer than the sender waits


@dataclass
class Received:
    webhook_id: str
    body: bytes
    payload: dict
    answered: int | str  # the status answered, or HANG
    at: float = field(default_factory=time.monotonic)
    headers: dict[str, str] = field(default_factory=dict)


class Receiver:
    def __init__(self) -> None:
        self.secret: str | None = None  # set once the webhook is registered
        self.plan: list[int | str] = []  # answers to give first, in order; then 200
        self.failing: dict[int, int] = {}  # notice number: how many of its tries to answer 500
        self.received: list[Received] = []
        self.unverified: list[str] = []  # why a request did not verify
        self.url = ""
        self._lock = threading.Lock()
        self._released = threading.Event()  # ends the hanging answers

    def take(self, headers: dict[str, str], body: bytes) -> int | str:
        with self._lock:
            if self.secret is None:
                self.unverified.append("no secret yet")
                return 401
            try:
                payload = Webhook(self.secret).verify(body, headers)
            except WebhookVerificationError as error:
                self.unverified.append(str(error))
                return 401
            answer = self.plan.pop(0) if self.plan else 200
            number = payload.get("id")
            if self.failing.get(number, 0) > 0:
                self.failing[number] -= 1
                answer = 500
            self.received.append(
                Received(headers["webhook-id"], body, payload, answer, headers=headers)
            )
            return answer

    def delivered(self) -> list[Received]:
        """What was answered 2xx, in the order it came."""
        with self._lock:
            return [r for r in self.received if r.answered == 200]

    def wait_for(self, count: int, within: float = 30.0) -> list[Received]:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            delivered = self.delivered()
            if len(delivered) >= count:
                return delivered
            time.sleep(0.05)
        raise AssertionError(f"{len(self.delivered())} of {count} delivered: {self.received}")

    def hang(self) -> None:
        self._released.wait(timeout=10)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            answer = receiver.take({k.lower(): v for k, v in self.headers.items()}, body)
            if answer == HANG:
                receiver.hang()
                return
            assert isinstance(answer, int)
            reply = json.dumps({"ok": answer == 200}).encode()
            self.send_response(answer)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@contextmanager
def receiving() -> Iterator[Receiver]:
    """A receiver listening on 127.0.0.1 (a free port), until the block ends."""
    receiver = Receiver()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver._released.set()
        server.shutdown()
        server.server_close()
