"""bench/stream.py's stream reader runs in a process of its own: when the bench dies without
stopping it (killed, or a crash), the reader must end too, not spin on its closed pipe."""

from __future__ import annotations

import subprocess
import sys

import psutil

from bench.service import REPO

DIES_WITHOUT_STOPPING = """
import os
from bench.sse_reader import ReaderProcess
if __name__ == "__main__":
    reader = ReaderProcess("http://127.0.0.1:9")
    print(reader.process.pid, flush=True)
    os._exit(0)
"""


def test_a_reader_whose_bench_died_ends_by_itself():
    # Given a bench that started its stream reader, when it dies without stopping it
    bench = subprocess.run(
        [sys.executable, "-c", DIES_WITHOUT_STOPPING],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        timeout=30,
        text=True,
    )
    reader = psutil.Process(int(bench.stdout.split()[0]))
    # Then the reader ends within seconds
    try:
        gone, _ = psutil.wait_procs([reader], timeout=10)
    finally:
        if reader.is_running():
            reader.kill()
    assert gone == [reader]
