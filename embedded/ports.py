"""Free TCP ports on 127.0.0.1, for servers started on the fly (the embedded Redis, benches,
tests)."""

from __future__ import annotations

import socket

ATTEMPTS = 50


def free_port(span: int = 1) -> int:
    """A port nothing listens on now, and the `span - 1` after it too: `make run` with Pushpin
    in front takes PORT, PORT + 1 (the API) and PORT + 2 (Pushpin's control API)."""
    for _ in range(ATTEMPTS):
        port = _bound_then_freed(0)
        if all(_bound_then_freed(port + offset) for offset in range(1, span)):
            return port
    raise OSError(f"no {span} free ports in a row on 127.0.0.1 after {ATTEMPTS} tries")


def _bound_then_freed(port: int) -> int:
    """The port bound (0: any the system picks), then released; 0 if it is taken."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return 0
        return int(sock.getsockname()[1])
