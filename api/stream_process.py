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
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

RUNTIME_VARIABLE = "STREAM_RUNTIME_DIR"
SOCKET_NAME = "handoff.sock"
COUNTS_NAME = "counts"
RESTART_SECONDS = 0.5  # first delay before starting a dead stream process again, doubling
RESTART_MAX_SECONDS = 10.0
STAYED_UP_SECONDS = 30.0  # up this long: the next death starts again at the first delay

log = logging.getLogger("gunicorn.error")


def runtime_directory() -> str:
    """A directory of this server's own, removed when the master exits; exported to workers."""
    made = tempfile.mkdtemp(prefix="cardroom-streams-")
    os.environ[RUNTIME_VARIABLE] = made
    return made


def socket_path(directory: str) -> str:
    return os.path.join(directory, SOCKET_NAME)


def counts_path(directory: str) -> str:
    return os.path.join(directory, COUNTS_NAME)


class StreamProcess:
    """Runs `python -m api.stream_server DIR` and keeps it running until `stop`. `on_exit` is
    called after each death (the master zeroes the dead process's counts)."""

    def __init__(self, directory: str, on_exit: Callable[[], None]) -> None:
        self._directory = directory
        self._on_exit = on_exit
        self._stopping = threading.Event()
        self._proc: subprocess.Popen | None = None
        self._thread = threading.Thread(target=self._keep_running, name="streams", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _keep_running(self) -> None:
        delay = RESTART_SECONDS
        while not self._stopping.is_set():
            started = time.monotonic()
            command = [sys.executable, "-m", "api.stream_server", self._directory]
            self._proc = subprocess.Popen(command)
            # gunicorn's master reaps every child (waitpid(-1)), ours too: then wait() finds
            # none to wait for and returns 0. Either way, it has exited.
            status = self._proc.wait()
            self._on_exit()
            if self._stopping.is_set():
                return
            if time.monotonic() - started >= STAYED_UP_SECONDS:
                delay = RESTART_SECONDS
            log.warning("the stream process exited (status %s); again in %.1f s", status, delay)
            if self._stopping.wait(delay):
                return
            delay = min(RESTART_MAX_SECONDS, delay * 2)

    def stop(self, timeout: float) -> None:
        """Ends every open stream cleanly (SIGTERM), killing the process after `timeout`."""
        self._stopping.set()
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
        self._thread.join(timeout)
        shutil.rmtree(self._directory, ignore_errors=True)
