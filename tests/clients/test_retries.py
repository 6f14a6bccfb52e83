"""How `act` retries, against a small scripted HTTP server on 127.0.0.1 (the live server does
not answer 429 or 503 on cue): Retry-After is honoured, the Idempotency-Key stays the same on
every try, the tries are bounded, and then the problem is raised."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cardroom_client import Cardroom, RateLimited, Unavailable
from cardroom_client.sync import Seat

GAME = {"id": "g", "type": "trick_and_snipers", "status": "active", "version": 9, "round": 1,
        "phase": "playing", "to_act": [1], "seats": [], "options": {}}  # fmt: skip
RESULT = {"version": 9, "events": [], "game": GAME}


@contextmanager
def scripted(answers: list[tuple[int, dict[str, str]]]) -> Iterator[tuple[str, list[dict]]]:
    """A server answering each POST with the next (status, headers), then 201 RESULT; it
    records each request's headers and when it came."""
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            seen.append({"at": time.monotonic(), **{k.lower(): v for k, v in self.headers.items()}})
            status, headers = answers.pop(0) if answers else (201, {})
            problem = {"code": {429: "rate-limited", 503: "unavailable"}.get(status, "")}
            body = json.dumps(RESULT if status == 201 else problem).encode()
            self.send_response(status)
            kind = "application/json" if status == 201 else "application/problem+json"
            for name, value in {"Content-Type": kind, **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def test_act_waits_retry_after_and_keeps_its_idempotency_key():
    answers = [(429, {"Retry-After": "0.3"}), (503, {"Retry-After": "0.4"})]
    with scripted(answers) as (url, seen), Cardroom(url) as cr:
        result = Seat(cr, "g", 0, "token").act({"type": "pass_relics"})
    assert result.version == 9
    assert len(seen) == 3 and len({request["idempotency-key"] for request in seen}) == 1
    assert seen[1]["at"] - seen[0]["at"] >= 0.3 and seen[2]["at"] - seen[1]["at"] >= 0.4


def test_act_gives_up_after_four_tries_and_raises_the_last_problem():
    answers = [(503, {"Retry-After": "0"})] * 3 + [(429, {"Retry-After": "0"})] * 3
    with scripted(answers) as (url, seen), Cardroom(url) as cr:
        with pytest.raises(RateLimited):
            Seat(cr, "g", 0, "token").act({"type": "pass_relics"})
    assert len(seen) == 4


def test_a_write_without_its_own_key_is_not_sent_twice():
    with scripted([(503, {"Retry-After": "0"})]) as (url, seen), Cardroom(url) as cr:
        with pytest.raises(Unavailable):
            Seat(cr, "g", 0, "token").leave()
    assert len(seen) == 1
