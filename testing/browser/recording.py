"""What a page did: every request it made, every response it got (JSON bodies parsed), its
console errors and its uncaught errors. Attached to a Playwright page before it loads anything.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

JSON_TYPES = ("application/json", "application/problem+json")
STREAM_TYPE = "text/event-stream"


@dataclass
class Recorded:
    """One response: its URL, method, status, headers, body size (None for a stream or a
    body that could not be read) and parsed body (JSON responses only)."""

    url: str
    method: str
    status: int
    headers: dict[str, str]
    size: int | None = None
    body: Any = None
    at: float = 0.0  # epoch seconds when it was recorded


@dataclass
class PageRecord:
    requests: list[tuple[str, str]] = field(default_factory=list)  # (method, url)
    responses: list[Recorded] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def attach(self, page) -> PageRecord:
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        return self

    def _on_request(self, request) -> None:
        self.requests.append((request.method, request.url))

    def _on_console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({message.location.get('url', '')})")

    def _on_response(self, response) -> None:
        headers = {name.lower(): value for name, value in response.headers.items()}
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        method = response.request.method
        recorded = Recorded(response.url, method, response.status, headers, at=time.time())
        self.responses.append(recorded)
        if (
            kind == STREAM_TYPE
            or response.status in (101, 204, 304)
            or 300 <= response.status < 400
        ):
            recorded.size = 0 if kind != STREAM_TYPE else None
            return
        try:
            raw = response.body()
        except Exception:  # the page went away, or the body was never kept
            return
        recorded.size = len(raw)
        if kind in JSON_TYPES and raw:
            try:
                recorded.body = json.loads(raw)
            except ValueError:
                recorded.body = raw.decode("utf-8", "replace")

    # --- questions --------------------------------------------------------------------------

    def posts_to(self, suffix: str) -> list[str]:
        """The URLs of every POST whose path ends with `suffix` (e.g. "/actions")."""
        return [
            url for method, url in self.requests if method == "POST" and _path(url).endswith(suffix)
        ]

    def answered(self, method: str, suffix: str) -> int | None:
        """How many `method` requests to a path ending with `suffix` were answered, or None
        while one is still waiting for its answer."""
        sent = sum(1 for m, url in self.requests if m == method and _path(url).endswith(suffix))
        got = sum(1 for r in self.responses if r.method == method and _path(r.url).endswith(suffix))
        return got if got >= sent else None

    def foreign_requests(self, origin: str) -> list[str]:
        """Every request to anywhere but `origin` (scheme://host:port); data: and blob: URLs
        stay inside the page and are not requests to anyone."""
        return [
            f"{method} {url}"
            for method, url in self.requests
            if not url.startswith(("data:", "blob:")) and _origin(url) != origin
        ]

    def json_bodies(self) -> list[tuple[str, Any]]:
        return [
            (f"{r.method} {r.url} -> {r.status}", r.body)
            for r in self.responses
            if r.body is not None
        ]

    def bytes_since(self, index: int = 0) -> int:
        """The sum of the body sizes of the responses from `index` on (streams excluded)."""
        return sum(r.size or 0 for r in self.responses[index:])

    def summary(self) -> str:
        lines = [f"{len(self.requests)} request(s), {len(self.responses)} response(s)"]
        lines += [f"console error: {text}" for text in self.console_errors[-10:]]
        lines += [f"page error: {text}" for text in self.page_errors[-10:]]
        return "\n".join(lines)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _path(url: str) -> str:
    return urlsplit(url).path
