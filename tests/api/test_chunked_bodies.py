"""Malformed chunked bodies, sent as raw bytes to a real gunicorn (as `make run` starts it):
each gets one problem+json 400 `validation-error` and nothing after it, an over-size one a 413
`payload-too-large`, and none logs a traceback or a warning."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from api import MAX_BODY_BYTES
from tests.api.real_server import gunicorn_serving

MALFORMED = {
    "a chunk size that is not hex": b"zz\r\n{}\r\n0\r\n\r\n",
    "a chunk without its CRLF": b"2\r\n{}XX0\r\n\r\n",
    "a bad chunk extension": b"2;\x01bad\r\n{}\r\n0\r\n\r\n",
    "a chunk cut short": b"10\r\n{}",
    "no last chunk": b"2\r\n{}\r\n",
    "a trailer line ending in a bare LF": b"2\r\n{}\r\n0\r\nX-Trailer: 1\n\r\n",
}
NO_GAME = "00000000-0000-4000-8000-000000000000"
# One route whose view reads the body, one whose rate limit reads it, one that answers (401)
# before any view would read it, and one that no view serves (405).
ROUTES = {
    "join": f"/games/{NO_GAME}/seats/0/join",
    "create": "/games",
    "leave": f"/games/{NO_GAME}/seats/0/leave",
    "no such method": "/healthz",
}
CREATE = {"type": "trick_and_snipers", "seats": [{"kind": "bot", "level": "random"}] * 3}


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    after: bytes  # anything the server sent after this response, up to closing

    def problem(self) -> dict:
        assert self.headers["content-type"] == "application/problem+json", self.headers
        return json.loads(self.body)


@pytest.fixture(scope="module")
def server(settings, tmp_path_factory) -> Iterator[tuple[tuple[str, int], Path]]:
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with gunicorn_serving(settings, log=log, WEB_WORKERS="1") as served:
        yield served.address, log


def send(address: tuple[str, int], path: str, body: bytes) -> Answer:
    """POST `body` as the raw chunked bytes given, then read until the server closes."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: cardroom\r\nContent-Type: application/json\r\n"
        "Authorization: Bearer not-a-token-of-any-game-at-all\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(head.encode() + body)
        sock.shutdown(socket.SHUT_WR)  # so a body cut short ends, and so does the connection
        received = b""
        while data := sock.recv(65536):
            received += data
    return parse(received)


def parse(received: bytes) -> Answer:
    head, _, rest = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    length = int(headers["content-length"])
    return Answer(int(status_line.split()[1]), headers, rest[:length], rest[length:])


def chunked(data: bytes, size: int = 8192) -> bytes:
    pieces = [data[i : i + size] for i in range(0, len(data), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


def padded_to(size: int, body: dict) -> bytes:
    data = json.dumps(body).encode()
    return data + b" " * (size - len(data))


def new_log_lines(log: Path, since: int) -> str:
    return log.read_bytes()[since:].decode("utf-8", "replace")


@pytest.mark.parametrize("path", ROUTES.values(), ids=ROUTES.keys())
@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_chunked_body_is_one_validation_error_and_logs_nothing(server, path, body):
    address, log = server
    logged = log.stat().st_size
    answer = send(address, path, body)
    assert answer.status == 400 and answer.problem()["code"] == "validation-error"
    assert answer.after == b""  # no second answer of gunicorn's own after ours
    assert new_log_lines(log, logged) == ""  # no traceback, no "Invalid request" warning


@pytest.mark.parametrize("path", ROUTES.values(), ids=ROUTES.keys())
def test_a_chunked_body_over_64_kib_is_payload_too_large(server, path):
    address, log = server
    logged = log.stat().st_size
    answer = send(address, path, chunked(b" " * (MAX_BODY_BYTES + 1)))
    assert answer.status == 413 and answer.problem()["code"] == "payload-too-large"
    assert answer.after == b""
    assert new_log_lines(log, logged) == ""


def test_a_chunked_body_of_exactly_64_kib_is_read_whole(server):
    address, _ = server
    answer = send(address, "/games", chunked(padded_to(MAX_BODY_BYTES, CREATE)))
    assert answer.status == 201, answer.body
    assert json.loads(answer.body)["type"] == "trick_and_snipers"


def test_a_creation_over_64_kib_is_refused_without_a_traceback(server):
    # Given a table's body padded past the limit, sent whole with its Content-Length
    address, log = server
    logged = log.stat().st_size
    body = padded_to(MAX_BODY_BYTES + 1, CREATE)
    head = (
        "POST /games HTTP/1.1\r\nHost: cardroom\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(head.encode() + body)
        received = b""
        while data := sock.recv(65536):
            received += data
    # Then it is a 413, and the log holds no traceback (the creation quota never read it)
    answer = parse(received)
    assert answer.status == 413 and answer.problem()["code"] == "payload-too-large"
    assert new_log_lines(log, logged) == ""
