"""How a stream process writes to its clients: an event goes out in one send when the socket
has room, and all of it, in order, when the client reads slower than the server writes."""

from __future__ import annotations

import socket

import gevent
from gevent import socket as green

from api.stream_writes import write


def read_all(sock, size: int) -> bytes:
    got = b""
    while len(got) < size:
        got += sock.recv(65536)
    return got


def test_a_write_larger_than_the_sockets_buffer_arrives_whole_and_in_order():
    server, client = green.socketpair()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    data = bytes(range(256)) * 4096  # 1 MiB: many times the buffer
    reader = gevent.spawn(read_all, client, len(data))
    write(server, data)
    assert reader.get(timeout=10) == data


def test_a_small_write_is_one_send_without_asking_the_socket_its_buffer_size():
    class Recorder:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def send(self, data: bytes) -> int:
            self.calls.append("send")
            return len(data)

        def sendall(self, data: bytes) -> None:
            self.calls.append("sendall")

    recorder = Recorder()
    write(recorder, b"id: 7\nevent: card_played\ndata: {}\n\n")  # type: ignore[arg-type]
    assert recorder.calls == ["send"]
