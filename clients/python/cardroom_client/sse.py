"""Server-Sent Events, read from a response's lines (the format's rules that our streams use:
`id`, `event`, `data`, comments; no `retry` handling beyond ignoring it)."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    id: str | None
    event: str
    data: str


class _Parser:
    def __init__(self) -> None:
        self.id: str | None = None
        self.event = "message"
        self.data: list[str] = []

    def feed(self, line: str) -> Message | None:
        """A whole message at the blank line that ends it, else None."""
        if line == "":
            message = Message(self.id, self.event, "\n".join(self.data)) if self.data else None
            self.id, self.event, self.data = None, "message", []
            return message
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "id":
            self.id = value
        elif name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        return None


def messages(lines: Iterable[str]) -> Iterator[Message]:
    parser = _Parser()
    for line in lines:
        if (message := parser.feed(line.rstrip("\r\n"))) is not None:
            yield message


async def amessages(lines: AsyncIterable[str]) -> AsyncIterator[Message]:
    parser = _Parser()
    async for line in lines:
        if (message := parser.feed(line.rstrip("\r\n"))) is not None:
            yield message
