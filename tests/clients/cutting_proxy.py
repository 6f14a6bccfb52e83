"""A TCP proxy on 127.0.0.1 that forwards to a local server and can fail on purpose: cut every
connection through it (as a restart or a lost network does), or drop the next answer after
its request has reached the server (so the client cannot know whether it was applied). Its
`target_port` may change while it runs: a server restarted on another port, at the same URL."""

from __future__ import annotations

import socket
import threading

from embedded.ports import free_port


class CuttingProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._drop_next_answer = threading.Event()
        self.dropped = 0

    def __enter__(self) -> CuttingProxy:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._listener.close()
        self.cut()

    def cut(self) -> None:
        """Closes every connection now open through the proxy."""
        with self._lock:
            for sock in list(self._open):
                _close(sock)
            self._open.clear()

    def drop_next_answer(self) -> None:
        self._drop_next_answer.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:  # the server is down (restarting): as if it refused
                _close(client)
                continue
            with self._lock:
                self._open |= {client, upstream}
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if answers and self._drop_next_answer.is_set():
                    self._drop_next_answer.clear()
                    self.dropped += 1
                    break
                sink.sendall(chunk)
        except OSError:
            pass
        _close(source)
        _close(sink)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
