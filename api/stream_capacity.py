"""The stream capacity of one server (MAX_STREAMS), counted across all its API processes.

gunicorn's workers share one listening socket, and the kernel does not hand them connections
evenly: with a cap per process, one worker refused streams at its cap while the server as a
whole held far fewer (docs/benchmarks.md). So the counts live in memory that the gunicorn master
maps before it forks: one row per worker, written by that worker alone (no lock across
processes that a killed one could leave held), and summed at each open. Two workers opening at
the same instant may each pass the cap by a stream: it bounds resources, it is no contract.
The master zeroes the row of a worker that exits, so the streams it held stop counting at once.

The stream process (api/stream_server.py), which the master starts rather than forks, maps the
same counts from a file and writes its own row (`stream_row`): streams handed to it count there.

Without gunicorn (the app under Flask's test client), a process counts its own streams alone.

gunicorn's master imports this module from api/gunicorn_conf.py: it imports nothing of the app.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import threading
from collections.abc import MutableSequence

ROWS = 256  # more API processes than one server runs
STREAM_ROWS = 16  # the last rows are the stream processes', never a worker's


def stream_row(index: int) -> int:
    """The row of stream process `index`."""
    return ROWS - 1 - index


class StreamCounts:
    """Open streams, seated and spectating, one row per API process."""

    def __init__(self, rows: int = ROWS, path: str | None = None) -> None:
        """`path`: counts in that file, shared with every process that maps it (created at
        zero if absent); None: this process's own."""
        if path is None:
            self.seated: MutableSequence[int] = [0] * rows
            self.watching: MutableSequence[int] = [0] * rows
        else:
            self._map = _mapped(path, 2 * rows)
            # ctypes arrays index and sum as lists do
            self.seated = (ctypes.c_int64 * rows).from_buffer(self._map)  # type: ignore[assignment]
            self.watching = (ctypes.c_int64 * rows).from_buffer(self._map, 8 * rows)  # type: ignore[assignment]
        self._free = list(range(min(rows, ROWS - STREAM_ROWS)))  # the workers' rows
        self.row = 0  # this process's own row (a worker learns it after the fork)

    def assign(self) -> int:
        """In the master, before a worker forks: a row of its own, at zero."""
        row = self._free.pop(0)
        self._zero(row)
        return row

    def forget(self, row: int) -> None:
        """In the master, once a worker exited: its streams no longer count."""
        self._zero(row)
        if row not in self._free and row < ROWS - STREAM_ROWS:
            self._free.append(row)

    def _zero(self, row: int) -> None:
        self.seated[row] = 0
        self.watching[row] = 0


def _mapped(path: str, count: int) -> mmap.mmap:
    """`count` 64-bit integers in a file, mapped shared."""
    size = 8 * count
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if os.fstat(fd).st_size < size:
            os.ftruncate(fd, size)
        return mmap.mmap(fd, size)
    finally:
        os.close(fd)


# Set by api/gunicorn_conf.py in the master; a forked worker inherits it, mapping and all.
SERVER_COUNTS: StreamCounts | None = None


class StreamCapacity:
    """Whether one more stream may open: `capacity` in all, of which spectators may hold
    `spectator_capacity` (the rest is kept for seats)."""

    def __init__(self, counts: StreamCounts, capacity: int, spectator_capacity: int) -> None:
        self._counts = counts
        self._capacity = capacity
        self._spectator_capacity = spectator_capacity
        self._lock = threading.Lock()  # this process's streams open one at a time

    def acquire(self, seated: bool) -> bool:
        counts, row = self._counts, self._counts.row
        with self._lock:
            watching = sum(counts.watching)
            if sum(counts.seated) + watching >= self._capacity:
                return False
            if seated:
                counts.seated[row] += 1
            elif watching >= self._spectator_capacity:
                return False
            else:
                counts.watching[row] += 1
            return True

    def release(self, seated: bool) -> None:
        counts, row = self._counts, self._counts.row
        with self._lock:
            column = counts.seated if seated else counts.watching
            column[row] = max(0, column[row] - 1)

    def open_streams(self) -> int:
        """This process's open streams."""
        return self._counts.seated[self._counts.row] + self._counts.watching[self._counts.row]


def server_capacity(capacity: int, spectator_capacity: int) -> StreamCapacity:
    """The server's shared count when gunicorn set one up, else this process's own."""
    counts = SERVER_COUNTS if SERVER_COUNTS is not None else StreamCounts(1)
    return StreamCapacity(counts, capacity, spectator_capacity)
