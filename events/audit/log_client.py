"""The monitor's HTTP client (the standard library's): every way a server can fail or lie on
the wire becomes one plain sentence, `Unreliable`, never a traceback.

Each request has a deadline of its own, not only a socket timeout (a server dripping one byte
at a time would never time out), and a cap on the body it reads. 429 and 503 are waited out
as their `Retry-After` says, a few times.
"""

from __future__ import annotations

import http.client
import json
import math
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlencode

SECONDS = 15.0  # a request's whole deadline, connecting, waiting and reading
SMALL = 1 << 20  # a checkpoint, a proof, a page of entries
LARGE = 64 << 20  # an export
RETRIES = 5  # 429 and 503 waited out at most this many times in a row
MAX_WAIT = 60.0  # seconds, whatever Retry-After says
CHUNK = 1 << 16


class Unreliable(Exception):
    """The server did not answer what the protocol says: why, in a sentence."""


class LogServer:
    def __init__(self, url: str, seconds: float = SECONDS) -> None:
        self.url = url.rstrip("/")
        self.seconds = seconds

    def json(self, path: str, **query: Any) -> dict[str, Any]:
        raw = self.get(path, SMALL, **query)
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            raise Unreliable(f"GET {path} is not JSON") from None
        if not isinstance(value, dict):
            raise Unreliable(f"GET {path} is not a JSON object")
        return value

    def export(self, game_id: str) -> bytes:
        return self.get(f"/games/{quote(game_id, safe='')}/export", LARGE)

    def get(self, path: str, limit: int, **query: Any) -> bytes:
        """The body of a 200 answer, waiting out 429 and 503 a few times."""
        where = self.url + path + (f"?{urlencode(query)}" if query else "")
        for _ in range(RETRIES):
            status, wait, body = self._once(where, path, limit)
            if status == 200:
                return body
            if status not in (429, 503):
                raise Unreliable(f"GET {path} answered {status}{_problem(body)}")
            time.sleep(wait)
        raise Unreliable(f"GET {path} kept answering {status} (busy) after {RETRIES} tries")

    def _once(self, where: str, path: str, limit: int) -> tuple[int, float, bytes]:
        deadline = time.monotonic() + self.seconds
        request = urllib.request.Request(where, headers={"Accept": "*/*"})
        try:
            with urllib.request.urlopen(request, timeout=self.seconds) as response:  # noqa: S310
                return 200, 0.0, _read(response, limit, deadline, path)
        except urllib.error.HTTPError as error:
            with error:
                body = _read(error, SMALL, deadline, path)
                return error.code, _retry_after(error.headers.get("Retry-After")), body
        except (OSError, http.client.HTTPException, ValueError) as error:
            raise Unreliable(f"GET {path} failed: {_plainly(error)}") from None


def _read(response: Any, limit: int, deadline: float, path: str) -> bytes:
    chunks, size = [], 0
    read = getattr(response, "read1", response.read)  # returns what one read of the socket got
    try:
        while chunk := read(CHUNK):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise Unreliable(f"GET {path} sent more than {limit} bytes")
            if time.monotonic() > deadline:
                raise Unreliable(f"GET {path} took longer than its deadline")
    except (OSError, http.client.HTTPException) as error:
        raise Unreliable(f"GET {path} broke off: {_plainly(error)}") from None
    return b"".join(chunks)


def _retry_after(value: str | None) -> float:
    try:
        seconds = float(value or 1)
    except ValueError:
        return 1.0  # an HTTP date, or nonsense: a second, then ask again
    return min(max(seconds, 0.1), MAX_WAIT) if math.isfinite(seconds) else 1.0


def _problem(body: bytes) -> str:
    """A problem+json's detail, when the server sent one."""
    try:
        detail = json.loads(body).get("detail")
    except (ValueError, AttributeError, RecursionError):
        return ""
    return f": {detail[:200]}" if isinstance(detail, str) else ""


def _plainly(error: BaseException) -> str:
    if isinstance(error, urllib.error.URLError) and not isinstance(error.reason, str):
        error = error.reason  # the socket's own error
    if isinstance(error, TimeoutError):
        return "timed out"
    return str(error) or type(error).__name__
