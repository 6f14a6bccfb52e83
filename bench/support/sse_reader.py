"""Thousands of Server-Sent Event streams read by one asyncio loop in a process of its own.

A process of its own: the reader must share neither the GIL with the bench's drivers nor, at
10,000 sockets, its descriptor limit with the server's. Plain asyncio sockets speaking HTTP/1.0
(no chunked framing), each event handled in its protocol's callback: at 10,000 streams the
reader's CPU competes with the server's. An event's delivery is its arrival less its
`recorded_at` (a notice's `at`). The parent commands it over a Pipe: ("open", paths,
concurrency, ended), ("status",) answered with a Status, ("stop",) answered with the final one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import multiprocessing
import os
import re
import resource
import threading
import time
from array import array
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlsplit

from bench.support.stats import percentile

OPEN_TIMEOUT = 30.0  # connect + response head
OPEN_ATTEMPTS = 20  # tries per stream while refused (503)
HEAD_LIMIT = 64 * 1024
RECENT = 2000
RECORDED_AT = re.compile(rb'"(?:recorded_)?at":\s*"([^"]+)"')
GAME_ENDED = b"event: GameEnded"


@dataclass
class Status:
    """What the reader has done so far; the arrays (samples) only in the final one."""

    open_now: int = 0
    opened: int = 0  # streams that got their 200
    pending: int = 0  # asked for, neither open nor given up yet
    refusals: Counter[str] = field(default_factory=Counter)  # non-200 answers, by status
    failed: Counter[str] = field(default_factory=Counter)  # streams given up on, by reason
    ended: int = 0  # open streams the server closed (the game ended, or worse)
    dropped: int = 0  # of those, without GameEnded on them, of games the bench did not end
    events: int = 0  # live events received (after their stream opened)
    backlog: int = 0  # events recorded before their stream opened (not timed)
    recent_p95: float = float("nan")  # lag p95 of the last RECENT events, s (for progress)
    arrivals: array[float] = field(default_factory=lambda: array("d"))  # epoch s, one per event
    lags: array[float] = field(default_factory=lambda: array("d"))  # arrival - recorded_at, s

    def lags_between(self, start: float, end: float) -> list[float]:
        """The lags of the events that arrived from `start` (epoch s) until before `end`."""
        timed = zip(self.arrivals, self.lags, strict=True)
        return [lag for at, lag in timed if start <= at < end]


def game_of(path: str) -> str:
    """The game id of a stream's path, /games/{id}/events/stream?... (any other: itself)."""
    parts = path.split("/", 3)
    return parts[2] if len(parts) > 2 and parts[1] == "games" else path


def recorded_epoch(event_json: bytes) -> float:
    found = RECORDED_AT.search(event_json)  # a tenth of the cost of parsing the whole event
    if found:
        recorded = found.group(1).decode()
    else:
        message = json.loads(event_json)
        recorded = message.get("recorded_at") or message["at"]
    return datetime.fromisoformat(recorded).timestamp()  # 3.11+ reads the trailing "Z"


class StreamProtocol(asyncio.Protocol):
    """One stream's socket: sends the request, gives its response head to `head`, then
    records each event of a 200's body as it arrives; `closed` is done when the socket is."""

    def __init__(self, reader: Reader, request: bytes) -> None:
        loop = asyncio.get_running_loop()
        self.reader = reader
        self.request = request
        self.head: asyncio.Future[bytes] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.opened_at = 0.0
        self.recording = False
        self.buffer = b""
        self.saw_game_end = False  # its game's GameEnded came on it: the server ends it next

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if not self.head.done():
            data = self._head_from(data)
        if not self.recording or not data:
            return
        arrived = time.time()
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        for line in lines:
            if line.startswith(b"data: "):
                self.reader.record(arrived, recorded_epoch(line[6:]), self.opened_at)
            elif line == GAME_ENDED:
                self.saw_game_end = True

    def _head_from(self, data: bytes) -> bytes:
        """Takes the head once it is all there; returns what follows it."""
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self.buffer) > HEAD_LIMIT and self.transport:
                self.transport.close()
            return b""
        head, rest = self.buffer[: end + 4], self.buffer[end + 4 :]
        self.buffer = b""
        self.opened_at = time.time()
        self.recording = head.split(b" ", 2)[1] == b"200"
        self.head.set_result(head)
        return rest

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.head.done():
            self.head.set_exception(exc or ConnectionResetError("closed before its head"))
        if not self.closed.done():
            self.closed.set_result(None)


class Reader:
    def __init__(self, url: str, conn: Connection) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.conn = conn
        self.status = Status()
        self.tasks: set[asyncio.Task[None]] = set()
        # Streams the server closed before their game's GameEnded came on them, per game: a
        # stream opened just as its game ended gets none (the bench then says it ended).
        self.cut_by_game: Counter[str] = Counter()
        self.ended_games: set[str] = set()  # games the bench said had ended
        self.done = asyncio.Event()
        self.parent_gone = False

    def on_command(self) -> None:
        try:
            command = self.conn.recv()
        except (EOFError, OSError):  # the bench is gone: stop, or its pipe stays readable and
            self.parent_gone = True  # this callback spins a core for as long as we live
            asyncio.get_running_loop().remove_reader(self.conn.fileno())
            self.done.set()
            return
        kind = command[0]
        if kind == "open":
            _, paths, concurrency, ended = command
            if ended is not None:
                self.ended_games.add(ended)
            self.status.pending += len(paths)  # counted now: the next status sees them
            self.spawn(self.open_all(paths, concurrency))
        elif kind == "status":
            p95 = percentile(self.status.lags[-RECENT:], 95)
            empty = array("d")  # the (large) arrays only in the final status
            self.conn.send(
                dataclasses.replace(self.counted(), recent_p95=p95, arrivals=empty, lags=empty)
            )
        elif kind == "stop":
            self.done.set()

    def counted(self) -> Status:
        """The status with its dropped streams counted when asked, not as streams close: the
        bench may hear that a game ended after the server has ended its streams."""
        cut = self.cut_by_game.items()
        self.status.dropped = sum(n for game, n in cut if game not in self.ended_games)
        return self.status

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def open_all(self, paths: list[str], concurrency: int) -> None:
        gate = asyncio.Semaphore(concurrency)
        for path in paths:
            await gate.acquire()  # the loop itself waits, so tasks are created only as needed
            self.spawn(self.stream(path, gate))

    async def stream(self, path: str, gate: asyncio.Semaphore) -> None:
        try:
            opened = await self.open_stream(path)
        finally:
            gate.release()  # held only for the handshakes (and the waits after refusals)
        self.status.pending -= 1
        if opened is None:
            return
        assert opened.transport is not None
        self.status.open_now += 1
        self.status.opened += 1
        try:
            await opened.closed
        finally:
            self.status.open_now -= 1
            opened.transport.close()
        if not self.done.is_set():
            self.status.ended += 1
            if not opened.saw_game_end:
                self.cut_by_game[game_of(path)] += 1

    async def open_stream(self, path: str) -> StreamProtocol | None:
        """The open stream, or None when given up; a refusal waits its Retry-After."""
        for _ in range(OPEN_ATTEMPTS):
            try:
                opened = await asyncio.wait_for(self.handshake(path), OPEN_TIMEOUT)
            except TimeoutError:
                self.status.failed["timeout"] += 1
                return None
            except OSError as error:
                self.status.failed[type(error).__name__] += 1
                return None
            if isinstance(opened, StreamProtocol):
                return opened
            await asyncio.sleep(opened)
        self.status.failed["refused every time"] += 1
        return None

    async def handshake(self, path: str) -> StreamProtocol | float:
        """The open stream, or how long to wait before retrying (it was refused)."""
        request = f"GET {path} HTTP/1.0\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n\r\n"
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.create_connection(
            lambda: StreamProtocol(self, request.encode()), self.host, self.port
        )
        try:
            head = await protocol.head
        except BaseException:
            transport.close()
            raise
        if protocol.recording:
            return protocol
        self.status.refusals[head.split(b" ", 2)[1].decode()] += 1
        transport.close()
        return retry_after(head)

    def record(self, arrived: float, recorded: float, opened_at: float) -> None:
        if recorded < opened_at:  # catching up on what happened before it opened
            self.status.backlog += 1
            return
        self.status.events += 1
        self.status.arrivals.append(arrived)
        self.status.lags.append(arrived - recorded)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self.conn.fileno(), self.on_command)
        await self.done.wait()
        if not self.parent_gone:
            loop.remove_reader(self.conn.fileno())
        for task in list(self.tasks):
            task.cancel()  # a stream's closes its socket
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if not self.parent_gone:
            self.conn.send(self.counted())


def retry_after(head: bytes) -> float:
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"retry-after":
            try:
                return float(value.strip())
            except ValueError:
                break
    return 1.0


def serve(url: str, conn: Connection, niceness: int = 0) -> None:
    """The reader process's main, with as many descriptors as the machine allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if niceness:
        os.nice(niceness)
    asyncio.run(Reader(url, conn).run())


class ReaderProcess:
    """The parent's handle on a reader process; `last` is the latest status asked for.
    `niceness` > 0: the reader yields the CPU to the server it measures whenever both want
    it, as clients on other machines would (its own delays then count in delivery)."""

    def __init__(self, url: str, niceness: int = 0) -> None:
        context = multiprocessing.get_context("spawn")  # no copy of the parent's threads
        self._conn, child = context.Pipe()
        self._lock = threading.Lock()  # one exchange at a time (the progress line asks too)
        self.process = context.Process(target=serve, args=(url, child, niceness), name="sse-reader")
        self.process.start()
        child.close()
        self.last = Status()

    def open(self, paths: list[str], concurrency: int, ended: str | None = None) -> None:
        """Opens `paths`; `ended`: the game that ended and whose place they take, if any."""
        with self._lock:
            self._conn.send(("open", paths, concurrency, ended))

    def status(self) -> Status:
        self.last = self._ask(("status",))
        return self.last

    def stop(self) -> Status:
        final = self._ask(("stop",))
        self.process.join(30)
        return final

    def _ask(self, command: tuple[str]) -> Status:
        with self._lock:
            self._conn.send(command)
            status: Status = self._conn.recv()
            return status
