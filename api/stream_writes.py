"""Writing an open stream's bytes to its client (api/stream_server.py). Kept apart from the
stream server, which monkey-patches whatever imports it."""

from __future__ import annotations

import socket


def write(client: socket.socket, data: bytes) -> None:
    """All of `data` (a stream's head, or its last chunk), most often in one send. gevent's
    sendall would first ask the socket its buffer size (a system call) and arm a timeout."""
    sent = client.send(data)
    if sent < len(data):
        client.sendall(data[sent:])
