"""One attempt at a delivery: a POST to the address that was checked, and what came back.

The connection goes to the checked address itself (the URL's host name only names it: the Host
header, and the name TLS checks the certificate against), so a name cannot be made to resolve
to another address between the check and the connection. No redirect is followed (a 3xx is a
failure), the whole attempt ends after `timeout` seconds however slowly the receiver answers,
and at most ANSWER_BYTES of the answer's body are read.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from events.webhooks.addresses import IPAddress, Target

TIMEOUT_SECONDS = 5.0
ANSWER_BYTES = 1024  # of the answer's body, read and kept; the rest is never read
USER_AGENT = "Cardroom-Webhooks/1"


@dataclass(frozen=True, slots=True)
class Attempt:
    status: int | None  # the answer's HTTP status; None when none came back
    latency_ms: int
    answer: str  # at most ANSWER_BYTES of the answer's body, as text
    error: str | None  # why no status came back (e.g. "timed out"), or why a 3xx failed

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def refused(reason: str) -> Attempt:
    """An attempt not made: the URL no longer passes the address rules, or does not resolve."""
    return Attempt(None, 0, "", reason)


def post(
    target: Target,
    address: IPAddress,
    headers: dict[str, str],
    body: bytes,
    timeout: float = TIMEOUT_SECONDS,
) -> Attempt:
    """POSTs `body` to `target` at `address`; never raises for what the receiver does."""
    started = time.monotonic()
    connection = _connection(target, address, timeout)
    watchdog = threading.Timer(timeout, _cut, args=(connection,))  # the whole attempt's limit
    watchdog.start()
    try:
        connection.request("POST", target.path, body=body, headers=_all_headers(target, headers))
        response = connection.getresponse()
        answer = response.read(ANSWER_BYTES).decode("utf-8", "replace")
        error = "redirects are not followed" if 300 <= response.status < 400 else None
        return Attempt(response.status, _ms_since(started), answer, error)
    except (OSError, http.client.HTTPException, ValueError) as failure:
        timed_out = time.monotonic() - started >= timeout or isinstance(failure, TimeoutError)
        return Attempt(None, _ms_since(started), "", "timed out" if timed_out else _why(failure))
    finally:
        watchdog.cancel()
        connection.close()


def _all_headers(target: Target, signed: dict[str, str]) -> dict[str, str]:
    return {
        "Host": target.host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Connection": "close",
        **signed,
    }


def _connection(target: Target, address: IPAddress, timeout: float) -> http.client.HTTPConnection:
    if target.scheme == "https":
        return _PinnedHTTPS(target.host, str(address), target.port, timeout)
    return _PinnedHTTP(target.host, str(address), target.port, timeout)


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to `address`, whatever `host` resolves to now."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPS(_PinnedHTTP):
    """The same, over TLS: the certificate must be valid for the URL's host (the system's
    trusted authorities, hostname checked)."""

    _context = ssl.create_default_context()

    def connect(self) -> None:
        super().connect()
        self.sock = self._context.wrap_socket(self.sock, server_hostname=self.host)


def _cut(connection: http.client.HTTPConnection) -> None:
    """Ends a blocked read or write at the attempt's deadline."""
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _why(failure: Exception) -> str:
    if isinstance(failure, ConnectionRefusedError):
        return "connection refused"
    if isinstance(failure, ssl.SSLCertVerificationError):
        return f"certificate refused: {failure.verify_message}"
    if isinstance(failure, ssl.SSLError):
        return "TLS failed"
    if isinstance(failure, http.client.HTTPException):
        return f"not an HTTP answer ({type(failure).__name__})"
    return type(failure).__name__


def _ms_since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
