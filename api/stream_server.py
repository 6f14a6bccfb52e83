"""`python -m api.stream_server DIR INDEX`: a stream process. gunicorn's master starts
STREAM_PROCESSES of them (and starts one again if it dies: api/stream_process.py); API workers
hand them open event streams, each game's to one of them (api/stream_handoff.py), and they
serve them until they end.

It serves each stream as a worker would (api/games/live.py: the same feeds, renders, resume,
heartbeats and `STREAM_MAX_SECONDS`), on gevent, but fans events out per game: one greenlet per
game writes to all of its streams (api/stream_rooms.py). The HTTP framing is its own too: the
head the worker's app made, then chunked transfer coding (HTTP/1.1) or the body up to the
connection's close (HTTP/1.0), and `Connection: close`.

Its streams count in its own row of the server's counts (api/stream_capacity.py), so MAX_STREAMS
stays one server's capacity. SIGTERM ends every stream at once, cleanly: its last chunk is sent
and the client resumes with Last-Event-ID.
"""

from gevent import monkey

monkey.patch_all()

# ruff: noqa: E402  (the patching above must come first)
import json
import logging
import os
import signal
import socket
import sys
import time
from dataclasses import dataclass
from email.utils import formatdate
from typing import Any
from uuid import UUID

import gevent
from gevent.event import Event
from gevent.pool import Pool
from gevent.server import StreamServer

from api import create_app
from api.games.feeds import Feeds
from api.games.live import BATCH, StreamSpec, preamble
from api.games.stream import client_slots
from api.garbage import collect_garbage_rarely
from api.stream_capacity import StreamCounts, stream_row
from api.stream_handoff import ACCEPTED, LENGTH
from api.stream_process import counts_path, socket_path
from api.stream_rooms import Member, Rooms, framed
from api.stream_writes import write
from events.postgres.notifications import GameNotifier
from events.settings import Settings, settings_or_exit

log = logging.getLogger("cardroom.streams")
MESSAGE_LIMIT = 256 * 1024  # a handoff's spec and headers; far more than any
SHUTDOWN_SECONDS = 5.0
ORPHAN_CHECK_SECONDS = 1.0  # for open streams to send their last chunk once told to end
LISTEN_BACKLOG = 2048


@dataclass(frozen=True)
class Handed:
    """One stream as a worker handed it over."""

    spec: StreamSpec
    seated: bool
    slot: str
    owners: list[str]
    http10: bool
    status: str
    headers: list[tuple[str, str]]

    def head(self) -> bytes:
        lines = [f"HTTP/1.1 {self.status}"]
        lines += [f"{name}: {value}" for name, value in self.headers]
        lines += ["Server: cardroom", f"Date: {formatdate(usegmt=True)}", "Connection: close"]
        if not self.http10:
            lines.append("Transfer-Encoding: chunked")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def framed(self, text: str) -> bytes:
        return framed(text, self.http10)

    def last(self) -> bytes:
        return b"" if self.http10 else b"0\r\n\r\n"


def handed(data: dict[str, Any], settings: Settings) -> Handed:
    spec = StreamSpec(
        UUID(data["game_id"]),
        data["viewer"],
        int(data["after"]),
        settings.stream_heartbeat_seconds,
        settings.stream_max_seconds,
        data.get("credential"),
    )
    headers = [(str(name), str(value)) for name, value in data["headers"]]
    return Handed(
        spec,
        data["viewer"] is not None,
        data["slot"],
        list(data["owners"]),
        bool(data["http10"]),
        data["status"],
        headers,
    )


class Streams:
    """The open streams of this process, and what they share: one LISTEN connection, the
    games' feeds, the caps per client (their slots are released here when a stream ends)."""

    def __init__(self, settings: Settings, services: Any, counts: StreamCounts) -> None:
        self._settings = settings
        self._counts = counts
        self.notifier = GameNotifier(settings.database_url)
        self._slots = client_slots(settings, services.redis)
        self._rooms = Rooms(
            self.notifier, Feeds(services.queries, BATCH), settings.stream_heartbeat_seconds
        )
        self.open = Pool()  # no bound: MAX_STREAMS bounds it
        self._owners: dict[str, list[str]] = {}  # each open stream's slot -> its owners

    def keep_slots(self) -> None:
        """Marks every open stream's slot alive once a heartbeat, all in one Redis round trip,
        so that only the slots of a process that died go stale."""
        while True:
            gevent.sleep(self._settings.stream_heartbeat_seconds)
            self._slots.refresh_many(list(self._owners.items()))

    def accept(self, conn: socket.socket, _address: Any) -> None:
        """One handoff: read it, count the stream, say so, then serve the stream."""
        try:
            stream, client = self._receive(conn)
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("a stream handoff failed: %s", type(error).__name__)
            conn.close()
            return
        column = self._counts.seated if stream.seated else self._counts.watching
        row = self._counts.row
        column[row] += 1
        try:
            conn.sendall(ACCEPTED)
        except OSError:  # the worker gave up waiting: it serves the stream itself
            column[row] -= 1
            client.close()
            return
        finally:
            conn.close()
        self._owners[stream.slot] = stream.owners
        try:
            self._serve(stream, client)
        finally:
            column[row] = max(0, column[row] - 1)
            del self._owners[stream.slot]
            self._slots.release(stream.slot, stream.owners)

    def _receive(self, conn: socket.socket) -> tuple[Handed, socket.socket]:
        data, fds, _flags, _address = socket.recv_fds(conn, MESSAGE_LIMIT, 1)
        if len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise ValueError("a handoff carries one socket")
        client = socket.socket(fileno=fds[0])
        try:
            while len(data) < LENGTH.size or len(data) < LENGTH.size + LENGTH.unpack_from(data)[0]:
                more = conn.recv(MESSAGE_LIMIT)
                if not more or len(data) > MESSAGE_LIMIT:
                    raise ValueError("a handoff cut short")
                data += more
            (length,) = LENGTH.unpack_from(data)
            message = json.loads(data[LENGTH.size : LENGTH.size + length])
            return handed(message, self._settings), client
        except BaseException:
            client.close()
            raise

    def _serve(self, stream: Handed, client: socket.socket) -> None:
        """The head and the preamble, then the stream's room sends it its events."""
        member = Member(stream.spec, client, stream.http10, time.monotonic())
        try:
            write(client, stream.head() + stream.framed(preamble(stream.spec)))
            self._rooms.join(member)
            member.serve()
            write(client, stream.last())
        except OSError:
            pass  # the client left: nothing to tell it
        except Exception:
            log.exception("a stream failed")
        finally:
            member.end()  # its room lets it go
            client.close()


def listening_socket(path: str) -> socket.socket:
    if os.path.exists(path):
        os.unlink(path)  # a dead predecessor's
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(LISTEN_BACKLOG)
    return listener


def _stop_when_orphaned(master: int, stopping: Event) -> None:
    """A master killed outright (SIGKILL) cannot stop its stream process: it stops itself."""
    while not stopping.is_set():
        if os.getppid() != master:
            log.warning("the server that started this stream process is gone; stopping")
            stopping.set()
        gevent.sleep(ORPHAN_CHECK_SECONDS)


def yield_to_requests() -> None:
    """Runs this process as a batch job (SCHED_BATCH: the same share of the CPU, but its
    wake-ups never preempt another process). An event wakes a game's hundred streams at once,
    and without this their burst preempted the API worker serving an action, whose latency is
    what players feel; a few milliseconds later on a stream is not. No privilege is needed."""
    try:
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    except (AttributeError, OSError) as error:  # not Linux, or refused: run as before
        log.info("streams keep the normal scheduling policy: %s", error)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not argv[2].isdigit():
        print("usage: python -m api.stream_server RUNTIME_DIR INDEX", file=sys.stderr)
        return 2
    directory, index = argv[1], int(argv[2])
    settings = settings_or_exit()
    services = create_app(settings).extensions["cardroom"]
    counts = StreamCounts(path=counts_path(directory))
    counts.row = stream_row(index)
    counts.forget(counts.row)  # a dead predecessor's streams ended with it
    streams = Streams(settings, services, counts)
    server = StreamServer(
        listening_socket(socket_path(directory, index)), streams.accept, spawn=streams.open
    )
    collect_garbage_rarely()
    yield_to_requests()
    stopping = Event()
    gevent.signal_handler(signal.SIGTERM, stopping.set)
    gevent.signal_handler(signal.SIGINT, stopping.set)
    gevent.spawn(_stop_when_orphaned, os.getppid(), stopping)
    gevent.spawn(streams.keep_slots)
    server.start()
    log.info("streams served from %s", socket_path(directory, index))
    stopping.wait()
    server.close()  # no more handoffs: the workers serve new streams themselves meanwhile
    streams.notifier.close()  # every open stream ends now, cleanly
    server.stop(timeout=SHUTDOWN_SECONDS)  # waits for their last chunks
    counts.forget(counts.row)
    services.pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
