"""What a call sends and when it is tried again, apart from how it is sent (sync.py and aio.py
send the same calls, one with httpx.Client, one with httpx.AsyncClient)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from .errors import ProblemError

ATTEMPTS = 4  # a call that may be repeated is sent at most this many times
RETRY_STATUSES = frozenset({429, 502, 503})
MAX_WAIT_SECONDS = 10.0  # a Retry-After beyond this is waited only this long
STREAM_READ_SECONDS = 45.0  # a heartbeat comes at least every 15 s: three missed, it is gone


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    token: str | None = None
    json: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    # Safe to send again: a read, or a write under an Idempotency-Key of its own.
    repeatable: bool = False

    def request_headers(self) -> dict[str, str]:
        headers = dict(self.headers)
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def request_params(self) -> dict[str, Any]:
        return {name: value for name, value in self.params.items() if value is not None}


def read(path: str, token: str | None, **params: Any) -> Call:
    return Call("GET", path, token, params=params, repeatable=True)


def write(path: str, token: str | None, body: Any = None, idempotent: bool = False) -> Call:
    """A POST; `idempotent`: under a fresh Idempotency-Key, kept on every retry, so that a try
    whose answer was lost is not applied twice."""
    headers = {"Idempotency-Key": str(uuid.uuid4())} if idempotent else {}
    return Call("POST", path, token, json=body, headers=headers, repeatable=idempotent)


def should_retry(response: httpx.Response) -> bool:
    if response.status_code in RETRY_STATUSES:
        return True
    # The same key still being served (the first try's answer was lost on its way).
    return response.status_code == 409 and _code(response) == "request-in-progress"


def wait_before(attempt: int, response: httpx.Response | None) -> float:
    """Retry-After when the server says, else a short backoff: 0.2 s, 0.4 s, 0.8 s."""
    if response is not None:
        try:
            return min(float(response.headers["Retry-After"]), MAX_WAIT_SECONDS)
        except (KeyError, ValueError):
            pass
    return min(0.2 * 2.0**attempt, MAX_WAIT_SECONDS)


def checked(response: httpx.Response) -> httpx.Response:
    """The response if it succeeded, else its problem raised."""
    if response.status_code < 400:
        return response
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    body.setdefault("title", response.reason_phrase)
    raise ProblemError.of(response.status_code, body)


def _code(response: httpx.Response) -> str:
    try:
        return str(response.json().get("code", ""))
    except (ValueError, AttributeError):
        return ""


def resume_headers(last: int | None) -> dict[str, str]:
    return {"Accept": "text/event-stream"} | (
        {"Last-Event-ID": str(last)} if last is not None else {}
    )


def create_body(game_type: str, seats: list[Any], options: dict[str, Any] | None) -> Any:
    return {"type": game_type, "seats": seats, "options": options or {}}


def queue_body(
    game_type: str, players: list[int] | None, rated: bool, bots_after_seconds: int | None
) -> dict[str, Any]:
    body: dict[str, Any] = {"type": game_type, "rated": rated}
    if players is not None:
        body["players"] = players
    if bots_after_seconds is not None:
        body["bots_after_seconds"] = bots_after_seconds
    return body
