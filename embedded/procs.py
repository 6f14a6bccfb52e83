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


def die_with_parent() -> None:
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
        preexec_fn=die_with_parent,
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
        if proc.poll() is None:
            proc.kill()
        kill_session(proc.pid)  # and whatever it started (forked workers, Pushpin's services)
        proc.wait()


def exit_code(returncode: int) -> int:
    """Shell-style exit status for a child's return code (negative = killed by a signal)."""
    return 128 - returncode if returncode < 0 else returncode


class Supervised:
    """A child that is started again when it dies, after a delay that doubles while it keeps
    dying soon after each start (so a child that cannot start does not spin), and is back to
    the first delay once it has stayed up for `stable_seconds`."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        env: Mapping[str, str],
        first_delay: float = 0.5,
        max_delay: float = 10.0,
        stable_seconds: float = 30.0,
    ) -> None:
        self.name = name
        self.command = list(command)
        self.env = dict(env)
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.stable_seconds = stable_seconds
        self.restarts = 0
        self.quick_deaths = 0  # deaths in a row, each soon after its start
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0
        self.restart_at: float | None = None  # set while dead, waiting to start again

    def start(self, now: float) -> None:
        self.proc = spawn(self.command, self.env)
        self.started_at = now
        self.restart_at = None

    def died(self, now: float) -> tuple[int, float] | None:
        """If the child has died since the last call: (its exit status, the delay before it
        starts again), everything it started killed (a gunicorn master's orphaned workers, or
        Pushpin's services, would keep its ports); None while it runs or already waits to
        start."""
        if self.proc is None or self.restart_at is not None:
            return None
        returncode = self.proc.poll()
        if returncode is None:
            return None
        kill_session(self.proc.pid)
        if now - self.started_at >= self.stable_seconds:
            self.quick_deaths = 0
        delay = min(self.max_delay, self.first_delay * 2**self.quick_deaths)
        self.quick_deaths += 1
        self.restart_at = now + delay
        return exit_code(returncode), delay

    def due(self, now: float) -> bool:
        """True when it waits to start again and its delay has passed."""
        return self.restart_at is not None and now >= self.restart_at

    def restart(self, now: float) -> None:
        self.restarts += 1
        self.start(now)


def kill_session(sid: int) -> None:
    """SIGKILL every process left in the session a child led (spawn() starts each in one of its
    own): its forked workers, and the groups its own children made. Pushpin's runner puts each
    of its services in a group of its own, and they outlive a runner killed outright."""
    for pid in _session_members(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _session_members(sid: int) -> list[int]:
    """The processes of session `sid` but its leader (whose pid, once reaped, may be reused)."""
    if not os.path.isdir("/proc"):  # no procfs: the leader's first group is all we can find
        try:
            os.killpg(sid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return []
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == sid:
            continue
        try:
            if os.getsid(int(entry)) == sid:
                members.append(int(entry))
        except (ProcessLookupError, PermissionError):
            continue
    return members
