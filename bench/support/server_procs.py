"""The processes of a service the bench started, found from its process tree: their memory
(RSS) and CPU time, so a bench can say what the server itself spent."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import psutil

T = TypeVar("T")
# The API (gunicorn's master and workers), the RQ workers, and, behind the front door of
# NODES=2 or FANOUT=pushpin, HAProxy and Pushpin (its runner, condure, zurl, proxy and handler).
APP_MARKERS = ("gunicorn", "-m workers", "pushpin", "condure", "zurl", "haproxy")


def descendants(pid: int | None = None) -> list[psutil.Process]:
    try:
        return list(psutil.Process(pid or os.getpid()).children(recursive=True))
    except psutil.Error:
        return []


def _cmdline(proc: psutil.Process) -> str:
    try:
        return " ".join(proc.cmdline())
    except psutil.Error:
        return ""


def app_processes(markers: Iterable[str] = APP_MARKERS) -> list[psutil.Process]:
    """This process's descendants whose command line has one of `markers`."""
    wanted = tuple(markers)
    return [p for p in descendants() if any(m in _cmdline(p) for m in wanted)]


def postgres_processes(data_dir: str | None) -> list[psutil.Process]:
    """The embedded Postgres started in `data_dir` (its postmaster is not our child: it
    daemonizes) and its backends; none when the service used an outside DATABASE_URL."""
    if not data_dir:
        return []
    marker = f"-D {os.path.join(data_dir, 'postgres')}"
    for proc in psutil.process_iter():
        if marker in _cmdline(proc):
            return [proc, *descendants(proc.pid)]
    return []


def _readings(
    procs: Iterable[psutil.Process], read: Callable[[psutil.Process], T]
) -> Iterator[tuple[psutil.Process, T]]:
    """(process, read(process)) for each process still there to be read."""
    for proc in procs:
        try:
            yield proc, read(proc)
        except psutil.Error:
            continue


def _rss(proc: psutil.Process) -> int:
    return int(proc.memory_info().rss)


def total_rss(procs: Iterable[psutil.Process]) -> int:
    return sum(rss for _, rss in _readings(procs, _rss))


def rss_by_process() -> dict[str, int]:
    """RSS of each server process under this one, keyed by its kind and pid; gunicorn's
    masters as "api master PID"."""
    found: dict[str, int] = {}
    for proc, rss in _readings(app_processes(), _rss):
        kind = kind_of(proc) or "other"
        if kind.startswith("api") and _master(proc) is proc:
            kind = "api master"
        found[f"{kind} {proc.pid}"] = rss
    return found


def _cpu(proc: psutil.Process) -> float:
    used = proc.cpu_times()
    return float(used.user + used.system)


def cpu_seconds(procs: Iterable[psutil.Process]) -> dict[int, float]:
    """User + system CPU seconds per pid so far (a gone process is left out)."""
    return {proc.pid: used for proc, used in _readings(procs, _cpu)}


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two `cpu_seconds` of the same processes (a new pid counts whole)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def machine_busy_seconds() -> float:
    total = psutil.cpu_times()
    return sum(getattr(total, name, 0.0) for name in ("user", "system", "nice", "irq", "softirq"))


def machine_steal_seconds() -> float:
    """CPU seconds the hypervisor gave the machine's vCPUs to others while they had work: a
    neighbour's load, which no process here shows (0 where the kernel does not count it)."""
    return getattr(psutil.cpu_times(), "steal", 0.0)


def _master(proc: psutil.Process) -> psutil.Process:
    """A gunicorn worker's master (its parent), or the process itself."""
    try:
        parent = proc.parent()
    except psutil.Error:
        return proc
    return parent if parent is not None and "gunicorn" in _cmdline(parent) else proc


def kind_of(proc: psutil.Process) -> str | None:
    """Which part of the service a process is: "haproxy", "pushpin" (its runner and services),
    "api :PORT" (a gunicorn master or worker, by the port its master binds), "workers"."""
    line = _cmdline(proc)
    if "haproxy" in line:
        return "haproxy"
    if any(name in line for name in ("pushpin", "condure", "zurl")):
        return "pushpin"
    if "-m workers" in line:
        return "workers"
    if "gunicorn" in line:
        bound = _cmdline(_master(proc)).rsplit("-b ", 1)
        return f"api {bound[1].split()[0].rsplit(':', 1)[-1]}" if len(bound) == 2 else "api"
    return None


def cpu_by_kind(data_dir: str | None = None, root: int | None = None) -> dict[str, float]:
    """CPU seconds so far of each part of the service under `root` (default: everything this
    process started), and of its embedded Postgres."""
    totals: dict[str, float] = {}
    for proc, used in _readings(descendants(root), _cpu):
        if (kind := kind_of(proc)) is not None:
            totals[kind] = totals.get(kind, 0.0) + used
    if postgres := cpu_seconds(postgres_processes(data_dir)):
        totals["postgres"] = sum(postgres.values())
    return totals


def cpu_between(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {kind: round(after[kind] - before.get(kind, 0.0), 2) for kind in sorted(after)}


# --- every process on the machine, by group (the actions bench's CPU per action) ---------------

GROUPS = ("bench client", "API (gunicorn)", "RQ worker", "Postgres", "other")
Snapshot = tuple[dict[tuple[int, float], tuple[str, float]], float]  # per (pid, start), busy


def _group(proc: psutil.Process) -> str:
    if proc.pid == os.getpid():
        return "bench client"
    line = _cmdline(proc)
    if "gunicorn" in line:
        return "API (gunicorn)"
    if "-m workers" in line:
        return "RQ worker"
    try:
        return "Postgres" if proc.name().startswith("postgres") else "other"
    except psutil.Error:
        return "other"


def snapshot() -> Snapshot:
    """CPU seconds so far of every process of the machine (a process that starts and ends
    between two snapshots is missed), and the machine's busy seconds."""
    readings = _readings(psutil.process_iter(), lambda p: (p.create_time(), _group(p), _cpu(p)))
    per_pid = {(proc.pid, start): (group, cpu) for proc, (start, group, cpu) in readings}
    return per_pid, machine_busy_seconds()


def usage(before: Snapshot, after: Snapshot) -> dict[str, float]:
    """CPU seconds per group between two snapshots, and 'total' (the machine's busy time)."""
    used = dict.fromkeys(GROUPS, 0.0)
    for key, (group, cpu) in after[0].items():
        used[group] += cpu - before[0].get(key, (group, 0.0))[1]
    return used | {"total": after[1] - before[1]}
