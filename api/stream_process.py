"""The stream process, seen from gunicorn's master: started beside the workers, started again
when it dies, stopped with the server.

The master makes a private directory for what the processes share: the counts of open streams
(api/stream_capacity.py maps them) and the Unix socket the workers hand streams over
(api/stream_handoff.py). Workers learn its path from STREAM_RUNTIME_DIR, set before they fork;
the stream process gets it on its command line.

gunicorn's master imports this module from api/gunicorn_conf.py: it imports nothing of the app.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable

RUNTIME_VARIABLE = "STREAM_RUNTIME_DIR"
SOCKET_NAME = "handoff-{}.sock"
COUNTS_NAME = "counts"
RESTART_SECONDS = 0.5  # first delay before starting a dead stream process again, doubling
RESTART_MAX_SECONDS = 10.0
STAYED_UP_SECONDS = 30.0
POLL_SECONDS = 0.2  # up this long: the next death starts again at the first delay

log = logging.getLogger("gunicorn.error")


def runtime_directory() -> str:
    """A directory of this server's own, removed when the master exits; exported to workers."""
    made = tempfile.mkdtemp(prefix="cardroom-streams-")
    os.environ[RUNTIME_VARIABLE] = made
    return made


def socket_path(directory: str, index: int) -> str:
    return os.path.join(directory, SOCKET_NAME.format(index))


def counts_path(directory: str) -> str:
    return os.path.join(directory, COUNTS_NAME)


class StreamProcess:
    """Runs `python -m api.stream_server DIR INDEX` and keeps it running until `stop`.
    `on_exit` is called after each death (the master zeroes the dead process's counts)."""

    def __init__(self, directory: str, index: int, on_exit: Callable[[], None]) -> None:
        self._directory = directory
        self._index = index
        self._on_exit = on_exit
        self._stopping = threading.Event()
        self._pid: int | None = None
        self._thread = threading.Thread(target=self._keep_running, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _keep_running(self) -> None:
        delay = RESTART_SECONDS
        while not self._stopping.is_set():
            started = time.monotonic()
            command = [
                sys.executable, "-m", "api.stream_server", self._directory, str(self._index)
            ]  # fmt: skip
            try:
                self._pid = _spawn(command)
                status = _exit_status(self._pid)
            except OSError as error:
                log.error("stream process %d could not start: %s", self._index, error)
                status = None
            self._on_exit()
            if self._stopping.is_set():
                return
            if time.monotonic() - started >= STAYED_UP_SECONDS:
                delay = RESTART_SECONDS
            what = (self._index, status, delay)
            log.warning("stream process %d exited (status %s); again in %.1f s", *what)
            if self._stopping.wait(delay):
                return
            delay = min(RESTART_MAX_SECONDS, delay * 2)

    def stop(self) -> None:
        """Tells it to end every open stream cleanly and exit (SIGTERM); `wait` for it."""
        self._stopping.set()
        if self._pid is not None:
            _signal(self._pid, signal.SIGTERM)

    def wait(self, timeout: float) -> None:
        """Waits for it to exit after `stop`, killing it after `timeout`."""
        self._thread.join(timeout)
        if self._thread.is_alive() and self._pid is not None:
            _signal(self._pid, signal.SIGKILL)
            self._thread.join(timeout)


def _spawn(command: list[str]) -> int:
    """Starts `command` with only stdin, stdout and stderr of this process's files (not
    gunicorn's listening sockets or pipes)."""
    actions = [(os.POSIX_SPAWN_CLOSE, fd) for fd in _open_files() if fd > 2 and _inherited(fd)]
    return os.posix_spawn(command[0], command, os.environ, file_actions=actions)


def _inherited(fd: int) -> bool:
    try:
        return os.get_inheritable(fd)
    except OSError:  # closed meanwhile (e.g. the listing's own)
        return False


def _open_files() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return []


def _exit_status(pid: int) -> int | None:
    """Once it has exited (None: gunicorn's master reaped it first). Polled, not waited on:
    the master reaps every child (waitpid(-1)), ours too."""
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done == pid:
            return os.waitstatus_to_exitcode(status)
        time.sleep(POLL_SECONDS)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass
