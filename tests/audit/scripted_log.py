"""A log server scripted by a test, on 127.0.0.1: the routes a monitor reads (/audit-key,
/log/checkpoint, /log/entries, /log/proof/consistency, /games/{id}/export), answered from a
naive RFC 9162 tree of the games it is given, signed with a test key; and any answer replaced,
slowed or broken, as a hostile or broken server would. It stands in for no part of the
service: the monitor's live tests run against the real one."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from events.audit.log_format import Checkpoint, leaf_bytes, sign_checkpoint
from events.audit.signing import HeadSigner
from tests.audit.naive_tree import NaiveTree
from tests.events.exports import SIGNER, lines_of

ORIGIN = "cardroom.test/log"
Answer = tuple[int, str, bytes]  # status, content type, body
Script = Callable[[dict[str, list[str]]], Answer]


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def leaf_of_export(text: str) -> tuple[str, bytes]:
    head = lines_of(text)[0]
    return head["game_id"], leaf_bytes(
        head["game_id"], head["chain_head"], head["type"], head["version"]
    )


@dataclass
class ScriptedLog:
    signer: HeadSigner = SIGNER
    origin: str = ORIGIN
    games: list[str] = field(default_factory=list)
    leaves: list[bytes] = field(default_factory=list)
    exports: dict[str, bytes] = field(default_factory=dict)
    replaced: dict[str, Script] = field(default_factory=dict)  # by path
    page: int = 2  # entries per page at most, so that paging is exercised
    requests: list[str] = field(default_factory=list)

    def add(self, export: str) -> None:
        """A finished game: its export served, its leaf appended."""
        game_id, leaf = leaf_of_export(export)
        self.games.append(game_id)
        self.leaves.append(leaf)
        self.exports[game_id] = export.encode("utf-8")

    def tree(self) -> NaiveTree:
        return NaiveTree(self.leaves)

    def note(self, size: int | None = None) -> bytes:
        size = len(self.leaves) if size is None else size
        return sign_checkpoint(Checkpoint(self.origin, size, self.tree().root(size)), self.signer)

    def answer(self, path: str, query: dict[str, list[str]]) -> Answer:
        self.requests.append(path)
        if path in self.replaced:
            return self.replaced[path](query)
        return self.honest(path, query)

    def honest(self, path: str, query: dict[str, list[str]]) -> Answer:
        """What the log as scripted answers, replaced or not."""
        if path == "/audit-key":
            return _json(self.signer.public_description())
        if path == "/log/checkpoint":
            return 200, "text/plain; charset=utf-8", self.note()
        if path == "/log/entries":
            start, end = int(query["start"][0]), int(query["end"][0])
            end = min(end, start + self.page, len(self.leaves))
            items = [
                {"index": i, "game_id": self.games[i], "leaf": b64(self.leaves[i])}
                for i in range(start, end)
            ]
            return _json({"items": items})
        if path == "/log/proof/consistency":
            first, second = int(query["from"][0]), int(query["to"][0])
            return _json({"hashes": [b64(h) for h in self.tree().consistency(first, second)]})
        game = path.removeprefix("/games/").removesuffix("/export")
        if path.endswith("/export") and game in self.exports:
            return 200, "application/x-ndjson", self.exports[game]
        return 404, "application/problem+json", b'{"detail": "no such route"}'


def _json(value: object) -> Answer:
    return 200, "application/json", json.dumps(value).encode()


def replies(status: int, body: bytes, delay: float = 0.0, kind: str = "application/json") -> Script:
    def script(_: dict[str, list[str]]) -> Answer:
        time.sleep(delay)
        return status, kind, body

    return script


@contextmanager
def serving(log: ScriptedLog) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            url = urlsplit(self.path)
            status, kind, body = log.answer(url.path, parse_qs(url.query))
            if status == -1:  # the connection cut mid-answer
                self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\npartial")
                return
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if status in (429, 503):
                self.send_header("Retry-After", "0.1")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
