"""Who used the CPU during a benchmark phase: CPU seconds per process group, from psutil.

Processes that start and end between two snapshots are missed (short-lived connections); the
API's pools and the workers live for the whole run, so their figures are complete.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import psutil

GROUPS = ("bench client", "API (gunicorn)", "RQ worker", "Postgres", "other")


@dataclass
class Snapshot:
    per_pid: dict[tuple[int, float], tuple[str, float]]  # (pid, create_time) -> (group, cpu s)
    busy: float  # machine-wide busy CPU seconds


def _group(proc: psutil.Process, me: int) -> str:
    if proc.pid == me:
        return "bench client"
    try:
        name = proc.name()
        cmdline = " ".join(proc.cmdline())
    except psutil.Error:
        return "other"
    if "gunicorn" in cmdline:
        return "API (gunicorn)"
    if "-m workers" in cmdline:
        return "RQ worker"
    if name.startswith("postgres"):
        return "Postgres"
    return "other"


def snapshot() -> Snapshot:
    me = os.getpid()
    per_pid: dict[tuple[int, float], tuple[str, float]] = {}
    for proc in psutil.process_iter():
        try:
            times = proc.cpu_times()
            key = (proc.pid, proc.create_time())
        except psutil.Error:
            continue
        per_pid[key] = (_group(proc, me), times.user + times.system)
    total = psutil.cpu_times()
    busy = total.user + total.system + getattr(total, "nice", 0.0) + getattr(total, "irq", 0.0)
    busy += getattr(total, "softirq", 0.0)
    return Snapshot(per_pid, busy)


def usage(before: Snapshot, after: Snapshot) -> dict[str, float]:
    """CPU seconds per group between two snapshots, plus 'total' (machine-wide busy time)."""
    used = dict.fromkeys(GROUPS, 0.0)
    for key, (group, cpu) in after.per_pid.items():
        used[group] += cpu - before.per_pid.get(key, (group, 0.0))[1]
    used["total"] = after.busy - before.busy
    return used
