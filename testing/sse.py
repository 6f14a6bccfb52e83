"""Server-Sent Events as a client reads them: one parser of the format, and one blocking client
for a stream or a few (tests). Thousands of streams at once are bench/support/sse_reader.py's, which
reads only what it times."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit


def messages(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Each message of an event stream, from its lines: a comment line as {"comment": text}, and
    at each blank line the fields of the message before it, if it has data (`data` lines joined
    by newlines, `retry` a number, a field given twice keeps its last value)."""
    fields: dict[str, Any] = {}
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line == "":
            if "data" in fields:
                yield fields
            fields = {}
        elif line.startswith(":"):
            yield {"comment": line[1:].strip()}
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data" and "data" in fields:
                value = fields["data"] + "\n" + value
            fields[name] = int(value) if name == "retry" and value.isdigit() else value


class Stream:
    """One stream opened with a GET: its messages as they come, each `data` decoded as JSON, and
    the comments (heartbeats) it got so far."""

    def __init__(self, url: str, headers: dict | None = None, timeout: float = 20.0) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        self.conn.request("GET", f"{parts.path}?{parts.query}", headers=headers or {})
        self.response = self.conn.getresponse()
        self.comments: list[str] = []

    @property
    def status(self) -> int:
        return self.response.status

    def messages(self) -> Iterator[dict[str, Any]]:
        """Each message as {"id", "event", "data"} or {"comment"}; ends when the server ends
        the stream."""
        lines = (line.decode("utf-8") for line in iter(self.response.readline, b""))
        for message in messages(lines):
            if "comment" in message:
                self.comments.append(message["comment"])
                yield message
            else:
                yield {**message, "data": json.loads(message["data"])}

    def events(self) -> Iterator[dict[str, Any]]:
        return (m for m in self.messages() if "data" in m)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
