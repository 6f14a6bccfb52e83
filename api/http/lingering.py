"""Closing a connection without resetting it under an answer (RFC 9112, section 9.6): used by
gunicorn's worker (api/server/gunicorn_worker.py) after its own refusals, and by
api/http/bodies.py after a body it refused. gunicorn's master imports the worker before it
monkey-patches, so this imports nothing beyond gevent and the socket module."""

from __future__ import annotations

from socket import SHUT_WR
from typing import Any

import gevent

# After answering, read (and drop) what the client is still sending, for this long at most and
# this much at most: closing a socket with unread input resets the connection, and the client
# may then lose the answer before reading it.
LINGER_SECONDS = 1.0
LINGER_BYTES = 64 * 1024


def linger(client: Any) -> None:
    """Half-close, then drain what the client still sends, so that closing does not reset the
    connection under an answer the client has not read yet."""
    client.shutdown(SHUT_WR)
    with gevent.Timeout(LINGER_SECONDS, False):
        drained = 0
        while drained < LINGER_BYTES:
            data = client.recv(8192)
            if not data:
                break
            drained += len(data)
