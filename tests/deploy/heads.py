"""Raw request heads at the edges of the API's limits (api/server/gunicorn_conf.py and
HEADER_BYTES_LIMIT), and what a server answers to one, read off the socket."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass

# 9 bytes of header fields as the API counts them. No Connection field: HAProxy consumes that
# hop-by-hop field and does not count it, the API does.
HOST = b"Host: x\r\n"


def line_of(length: int) -> bytes:
    """A request for a path that does not exist, its request line `length` bytes long."""
    return b"GET /" + b"a" * (length - 14) + b" HTTP/1.1\r\n" + HOST + b"\r\n"


def field_of(length: int) -> bytes:
    """One header field `length` bytes long with its CRLF."""
    return b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-A: " + b"a" * (length - 7) + b"\r\n\r\n"


def fields(count: int) -> bytes:
    extra = b"".join(b"X-%d: a\r\n" % i for i in range(count - 1))
    return b"GET /healthz HTTP/1.1\r\n" + HOST + extra + b"\r\n"


def fields_in_all(total: int) -> bytes:
    """Header fields of `total` bytes together, each well under the per-field limit."""
    parts = [b"X-%d: %s\r\n" % (i, b"a" * 4000) for i in range(7)]  # 4007 bytes each
    rest = total - len(HOST) - 7 * 4007
    parts.append(b"X-7: " + b"a" * (rest - 7) + b"\r\n")
    return b"GET /healthz HTTP/1.1\r\n" + HOST + b"".join(parts) + b"\r\n"


CASES = {
    "a request line at the limit": line_of(4094),
    "a request line one byte over": line_of(4095),
    "a header field at the limit": field_of(8190),
    "a header field one byte over": field_of(8191),
    "100 header fields": fields(100),
    "101 header fields": fields(101),
    "header fields of 32 KiB in all": fields_in_all(32 * 1024),
    "header fields one byte over 32 KiB": fields_in_all(32 * 1024 + 1),
    "a control byte in a header value": b"GET /healthz HTTP/1.1\r\n"
    + HOST
    + b"X-A: a\x01b\r\n\r\n",
}


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str
    problem_type: str | None


def answer_to(port: int, head: bytes, timeout: float = 15.0) -> Answer:
    raw = exchange(port, head, timeout)
    top, _, body = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    content_type = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
    problem = json.loads(body)["type"] if "problem+json" in content_type else None
    return Answer(status, content_type, problem)


def exchange(port: int, data: bytes, timeout: float) -> bytes:
    """Sends data, then reads one response: until its Content-Length is in, or the server
    closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
            if complete(received):
                break
        return received


def complete(received: bytes) -> bool:
    top, found, body = received.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in top.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False
