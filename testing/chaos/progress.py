"""Watches every game's version in the database, ten times a second, to tell when the games
progress again after a fault (reconnecting while the database itself is down)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import psycopg

Sample = tuple[float, dict[str, tuple[int, str]]]  # when, game -> (version, status)


class Progress(threading.Thread):
    def __init__(self, database_url: str, every: float = 0.1) -> None:
        super().__init__(daemon=True, name="progress")
        self.url = database_url
        self.every = every
        self.samples: list[Sample] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        conn: psycopg.Connection | None = None
        while not self.stopping.wait(self.every):
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.url, autocommit=True, connect_timeout=2)
                rows = conn.execute("SELECT game_id, version, status FROM streams").fetchall()
            except psycopg.Error:
                if conn is not None:
                    conn.close()
                conn = None
                continue
            sample = {str(game): (version, status) for game, version, status in rows}
            with self.lock:
                self.samples.append((time.monotonic(), sample))
        if conn is not None:
            conn.close()

    def latest(self) -> dict[str, tuple[int, str]]:
        with self.lock:
            return self.samples[-1][1] if self.samples else {}

    def stop(self) -> None:
        self.stopping.set()
        self.join(5)

    def wait_for_recovery(
        self, restored_at: float, timeout: float, check: Callable[[], None]
    ) -> tuple[float, int]:
        """Waits until every game unfinished when first seen after `restored_at` has moved past
        that version (or finished); when that was, and how many games it waited for. `check`
        raises to give up early (a client failed)."""
        deadline = time.monotonic() + timeout
        baseline: dict[str, int] | None = None
        while time.monotonic() < deadline:
            check()
            with self.lock:
                samples = [s for s in self.samples if s[0] >= restored_at]
            for at, sample in samples:
                if baseline is None:
                    baseline = {
                        g: version
                        for g, (version, status) in sample.items()
                        if status != "finished"
                    }
                    continue
                if all(
                    sample.get(g, (0, ""))[0] > version or sample.get(g, (0, ""))[1] == "finished"
                    for g, version in baseline.items()
                ):
                    return at, len(baseline)
            time.sleep(self.every)
        raise AssertionError(f"the games did not all progress within {timeout:.0f} s")
