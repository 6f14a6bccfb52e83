"""bench/stream.py's stream reader runs in a process of its own: when the bench dies without
stopping it (killed, or a crash), the reader must end too, not spin on its closed pipe."""

from __future__ import annotations

import socketserver
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime

import psutil

from bench.support.service import REPO
from bench.support.sse_reader import ReaderProcess

DIES_WITHOUT_STOPPING = """
import os
from bench.support.sse_reader import ReaderProcess
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


class SseHandler(socketserver.StreamRequestHandler):
    """Refuses the first stream (503, Retry-After), then serves each a body with one event
    from before it opened and two live ones (game g3's then its GameEnded), and closes."""

    refused = threading.Event()

    def handle(self) -> None:
        request_line = self.rfile.readline()
        while self.rfile.readline() not in (b"\r\n", b""):
            pass
        if not SseHandler.refused.is_set():
            SseHandler.refused.set()
            self.wfile.write(b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 0.1\r\n\r\n")
            return
        self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
        self.wfile.write(b'id: 1\nevent: Old\ndata: {"recorded_at": "2020-01-01T00:00:00Z"}\n\n')
        for version in (2, 3):
            time.sleep(0.05)
            now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
            self.wfile.write(f'id: {version}\ndata: {{"v": {version}, "recorded_at": "{now}"}}'
                             .encode() + b"\n\n")  # fmt: skip
            self.wfile.flush()
        if b"/games/g3/" in request_line:
            now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
            self.wfile.write(f'id: 4\nevent: GameEnded\ndata: {{"recorded_at": "{now}"}}\n\n'
                             .encode())  # fmt: skip


def test_the_reader_times_live_events_counts_the_backlog_and_retries_refusals():
    # Given a server that refuses once, then serves two streams and ends them
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), SseHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    reader = ReaderProcess(f"http://127.0.0.1:{server.server_address[1]}")
    try:
        # When the reader opens three streams, of three games, and hears that the first ended
        games = ["/games/g1/events/stream", "/games/g2/events/stream?after=0"]
        reader.open([*games, "/games/g3/events/stream"], 2)
        reader.open([], 1, ended="g1")
        deadline = time.monotonic() + 10
        while reader.status().ended < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        final = reader.stop()
    finally:
        server.shutdown()
    # Then all three opened (one after its refusal), the old events are backlog, the live timed
    assert (final.opened, final.ended, dict(final.refusals)) == (3, 3, {"503": 1})
    assert (final.events, final.backlog) == (7, 3)
    assert all(0 <= lag < 1.0 for lag in final.lags)
    # And only the stream that neither got its game's end nor was told of it counts as dropped
    assert final.dropped == 1
