"""Child-process and signal helpers shared by the launchers."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence


class StopSignal:
    """Records SIGINT/SIGTERM instead of raising, so the launcher can shut down in order."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.count = 0
        self.signum = 0

    def install(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._handle)

    def _handle(self, signum: int, _frame: object) -> None:
        self.count += 1
        self.signum = signum
        self.event.set()


def _die_with_parent() -> None:
    # Linux: the child gets SIGTERM if the launcher is killed outright (no orphaned servers).
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def spawn(cmd: Sequence[str], env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start cmd in its own process group: the launcher alone decides when and how it stops."""
    return subprocess.Popen(
        list(cmd),
        env=dict(env),
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )


def terminate(procs: Sequence[subprocess.Popen[bytes]], timeout: float = 20.0) -> None:
    """SIGTERM each process, wait up to timeout, then SIGKILL their whole process groups."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        try:  # also reaps grandchildren left in the group (forked workers)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()


def exit_code(returncode: int) -> int:
    """Shell-style exit status for a child's return code (negative = killed by a signal)."""
    return 128 - returncode if returncode < 0 else returncode
