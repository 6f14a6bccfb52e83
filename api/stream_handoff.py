"""Handing an open event stream from an API worker to the stream process (api/stream_server.py).

An API worker does everything a stream needs before its first byte, as always: the game, the
token or ticket, the caps, the resume point, the response's headers (CORS, request id, ...).
Then, instead of serving the stream itself, it passes the client's socket to the stream process
over a Unix socket (SCM_RIGHTS), with the stream's spec and its status and headers. The stream
process answers once it holds the socket and counts the stream; the worker then lets go of the
socket without writing to it (gunicorn only closes its own descriptor: the connection stays
open in the stream process). So the fan-out of every commit to thousands of streams runs in a
process of its own, and never delays the actions served by the workers.

When the stream process cannot be reached (not running, restarting), the worker serves the
stream itself, as it did before the stream process existed: nothing is refused for it.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from api import stream_process

log = logging.getLogger("cardroom.streams")
ENVIRON_KEY = "cardroom.stream_handoff"
HANDOFF_TIMEOUT = 2.0  # to connect, pass the socket and hear back (it takes well under 1 ms)
ACCEPTED = b"\x01"
LENGTH = struct.Struct("!I")
WARN_EVERY = 30.0  # seconds between two warnings that the stream process is out of reach
# Hop-by-hop fields are the connection's business: the stream process writes its own.
HOP_BY_HOP = {"connection", "transfer-encoding", "content-length", "keep-alive"}
STREAM_PATH_END = "/events/stream"
# Handshakes of streams one API process runs at once; the rest wait their turn. A table's
# spectators arrive together (100 handshakes in the same few ms), and on gevent each one runs
# until its first wait: unthrottled, an action that arrives among them waits behind them all,
# for the CPU and for the database pool. Two keep the handshakes' own waits (a statement, the
# stream process's answer) overlapped.
HANDSHAKES_AT_ONCE = 2


@dataclass
class StreamLease:
    """What an open stream holds until it ends: a place in the server's capacity (in this
    process's row) and a slot in its clients' caps. Once the stream is handed off, the stream
    process holds both: this process gives back its row's count and keeps the slot."""

    release_capacity: Callable[[], None]
    release_slot: Callable[[], None]
    handed_off: bool = False

    def end(self) -> None:
        self.release_capacity()
        if not self.handed_off:
            self.release_slot()


@dataclass
class Handoff:
    """Left in the WSGI environ by the stream view for the middleware below."""

    lease: StreamLease
    game_id: UUID
    viewer: int | None
    after: int
    slot: str
    owners: Sequence[str]
    credential: str | None = None  # the seat token's hash that opened it (None: a spectator)

    def message(self, environ: dict, status: str, headers: list[tuple[str, str]]) -> bytes:
        kept = [(name, value) for name, value in headers if name.lower() not in HOP_BY_HOP]
        data = {
            "game_id": str(self.game_id),
            "viewer": self.viewer,
            "after": self.after,
            "slot": self.slot,
            "owners": list(self.owners),
            "credential": self.credential,
            "http10": environ.get("SERVER_PROTOCOL") == "HTTP/1.0",
            "status": status,
            "headers": kept,
        }
        payload = json.dumps(data).encode()
        return LENGTH.pack(len(payload)) + payload


class HandedOff:
    """The WSGI body of a handed-off stream: api/gunicorn_worker.py sees it and closes its own
    descriptor of the connection, writing nothing."""

    def __iter__(self):
        return iter(())

    def close(self) -> None:
        pass


HANDED_OFF = HandedOff()


def handoff_socket_paths(processes: int) -> list[str]:
    """The stream processes' sockets, when this process runs under a server that starts them."""
    directory = os.environ.get(stream_process.RUNTIME_VARIABLE)
    if not directory:
        return []
    return [stream_process.socket_path(directory, index) for index in range(processes)]


class StreamHandoffMiddleware:
    """Wraps the Flask app: a stream response that the view marked for handoff is passed to the
    stream process, with the status and headers the app made, instead of being served here."""

    def __init__(
        self, app: Callable, paths: Sequence[str], handshakes: int = HANDSHAKES_AT_ONCE
    ) -> None:
        self._app = app
        self._paths = list(paths)
        self._warned = 0.0
        # Made in the worker, after gevent's patching: a semaphore that yields to greenlets.
        self._handshakes = threading.BoundedSemaphore(handshakes)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if not environ.get("PATH_INFO", "").endswith(STREAM_PATH_END):
            return self._app(environ, start_response)
        with self._handshakes:  # the handshake only: a stream served here streams after it
            return self._stream(environ, start_response)

    def _stream(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        handing = environ.get("REQUEST_METHOD") == "GET" and "gunicorn.socket" in environ
        if not self._paths or not handing:  # a HEAD has no body to hand off
            return self._app(environ, start_response)
        captured: list[Any] = []

        def deferred(status: str, headers: list, exc_info: Any = None) -> Callable:
            """A stream to hand off keeps its status and headers for the stream process."""
            if environ.get(ENVIRON_KEY) is None or not status.startswith("200"):
                return start_response(status, headers, exc_info)
            captured[:] = [status, headers, exc_info]
            return _no_write

        body = self._app(environ, deferred)
        handoff = environ.get(ENVIRON_KEY)
        if handoff is None or not captured:
            return body
        status, headers, exc_info = captured
        if self._hand(handoff, environ, status, headers):
            handoff.lease.handed_off = True
            _close(body)  # its lease gives back this process's count; the slot goes with it
            return HANDED_OFF
        start_response(status, headers, exc_info)  # served here after all
        return body

    def _hand(self, handoff: Handoff, environ: dict, status: str, headers: list) -> bool:
        client: socket.socket = environ["gunicorn.socket"]
        message = handoff.message(environ, status, headers)
        # A game's streams all go to one process, where they share one read per commit.
        path = self._paths[handoff.game_id.int % len(self._paths)]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.settimeout(HANDOFF_TIMEOUT)
                conn.connect(path)
                socket.send_fds(conn, [message], [client.fileno()])
                return conn.recv(1) == ACCEPTED
        except OSError as error:
            now = time.monotonic()
            if now - self._warned >= WARN_EVERY:
                self._warned = now
                log.warning("the stream process is out of reach (%s); serving streams here", error)
            return False


def _no_write(data: bytes) -> None:
    raise RuntimeError("a stream for handoff writes nothing here")


def _close(body: Iterable[bytes]) -> None:
    close = getattr(body, "close", None)
    if close is not None:
        close()
