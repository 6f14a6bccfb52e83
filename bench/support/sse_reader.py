"""Thousands of Server-Sent Event streams read by one asyncio loop in a process of its own.

bench/stream.py starts it with `ReaderProcess(url)`: the reader must not share a process with
the bench's drivers (the GIL) nor, at 10,000 sockets, its descriptor limit with the server's.
Streams are plain asyncio sockets speaking HTTP/1.0 (no chunked framing), each read by a
protocol's callback (no stream reader or task woken per event: at 10,000 streams the reader's
own CPU competes with the server's on the same machine): each `data:` line's `recorded_at` is
compared with the arrival time.

The parent commands it over a Pipe, one tuple per message:
  ("open", paths, concurrency[, ended])
                                     open these streams, `concurrency` handshakes at a time;
                                     a refusal (503, Retry-After) is counted and retried.
                                     `ended`: the id of a game that ended, whose streams the
                                     server ended with it (the others it ended before their
                                     game's GameEnded came on them are `dropped`)
  ("status",)                        -> a Status
  ("stop",)                          -> the final Status with its samples; the process ends
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
# When a message was made: an event's `recorded_at`, or a player's notice's `at`.
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
    first_ended_at: float = float("inf")  # epoch s when the server closed the first of them
    dropped: int = 0  # of those, without GameEnded on them, of games the bench did not end
    events: int = 0  # live events received (after their stream opened)
    backlog: int = 0  # events recorded before their stream opened (not timed)
    recent_p95: float = float("nan")  # lag p95 of the last RECENT events, s (for progress)
    arrivals: array[float] = field(default_factory=lambda: array("d"))  # epoch s, one per event
    lags: array[float] = field(default_factory=lambda: array("d"))  # arrival - recorded_at, s


def raise_open_files_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


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
        self.transports: set[asyncio.BaseTransport] = set()  # the streams'
        self.tasks: set[asyncio.Task[None]] = set()
        # Streams the server closed before their game's GameEnded came on them, per game: a
        # stream opened just as its game ended gets none (the bench then says it ended).
        self.cut_by_game: Counter[str] = Counter()
        self.ended_games: set[str] = set()  # games the bench said had ended
        self.done = asyncio.Event()
        self.parent_gone = False

    # --- commands --------------------------------------------------------------------------

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
            if len(command) > 3 and command[3] is not None:
                self.ended_games.add(command[3])
            self.status.pending += len(command[1])  # counted now: the next status sees them
            self.spawn(self.open_all(command[1], command[2]))
        elif kind == "status":
            self.conn.send(self.snapshot())
        elif kind == "stop":
            self.done.set()

    def snapshot(self) -> Status:
        s = self.status
        self.count_dropped()
        p95 = percentile(s.lags[-RECENT:], 95)
        return dataclasses.replace(  # everything but the (large) arrays
            s, refusals=Counter(s.refusals), failed=Counter(s.failed), recent_p95=p95,
            arrivals=array("d"), lags=array("d"),
        )  # fmt: skip

    def count_dropped(self) -> None:
        """Counted when asked, not as streams close: the bench may hear that a game ended
        after the server has ended its streams."""
        self.status.dropped = sum(
            n for game, n in self.cut_by_game.items() if game not in self.ended_games
        )

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- streams ---------------------------------------------------------------------------

    async def open_all(self, paths: list[str], concurrency: int) -> None:
        gate = asyncio.Semaphore(concurrency)
        for path in paths:
            await gate.acquire()  # the loop itself waits, so tasks are created only as needed
            self.spawn(self.stream(path, gate))

    async def stream(self, path: str, gate: asyncio.Semaphore) -> None:
        opened = await self.open_stream(path, gate)
        self.status.pending -= 1
        if opened is None:
            return
        self.status.open_now += 1
        self.status.opened += 1
        transport = opened.transport
        assert transport is not None
        self.transports.add(transport)
        try:
            await opened.closed
        finally:
            self.status.open_now -= 1
            self.transports.discard(transport)
            transport.close()
        if not self.done.is_set():
            self.status.ended += 1
            self.status.first_ended_at = min(self.status.first_ended_at, time.time())
            if not opened.saw_game_end:
                self.cut_by_game[game_of(path)] += 1

    async def open_stream(self, path: str, gate: asyncio.Semaphore) -> StreamProtocol | None:
        """The open stream, or None when given up; holds `gate` only for the handshakes (and
        the waits after refusals), so at most `concurrency` are under way."""
        try:
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
                await asyncio.sleep(opened)  # refused: Retry-After
            self.status.failed["refused every time"] += 1
            return None
        finally:
            gate.release()

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

    # --- running ---------------------------------------------------------------------------

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self.conn.fileno(), self.on_command)
        await self.done.wait()
        if not self.parent_gone:
            loop.remove_reader(self.conn.fileno())
        for transport in list(self.transports):
            transport.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if not self.parent_gone:
            self.count_dropped()
            self.conn.send(self.status)


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
    """The reader process's main; `niceness` above 0 lowers its priority (see ReaderProcess)."""
    raise_open_files_limit()
    if niceness:
        os.nice(niceness)
    asyncio.run(Reader(url, conn).run())


class ReaderProcess:
    """The parent's handle on a reader process."""

    def __init__(self, url: str, niceness: int = 0) -> None:
        """`niceness` > 0: the reader yields the CPU to the server it measures whenever both
        want it, as clients on other machines would (its own delays then count in delivery)."""
        context = multiprocessing.get_context("spawn")  # no copy of the parent's threads
        self._conn, child = context.Pipe()
        self._lock = threading.Lock()  # one exchange at a time (the progress line asks too)
        self.process = context.Process(target=serve, args=(url, child, niceness), name="sse-reader")
        self.process.start()
        child.close()

    def open(self, paths: list[str], concurrency: int, ended: str | None = None) -> None:
        """Opens `paths`; `ended`: the game that ended and whose place they take, if any."""
        self._send(("open", paths, concurrency, ended))

    def status(self) -> Status:
        return self._ask(("status",))

    def stop(self) -> Status:
        final = self._ask(("stop",))
        self.process.join(30)
        return final

    def _send(self, command: tuple[Any, ...]) -> None:
        with self._lock:
            self._conn.send(command)

    def _ask(self, command: tuple[Any, ...]) -> Status:
        with self._lock:
            self._conn.send(command)
            status: Status = self._conn.recv()
            return status
