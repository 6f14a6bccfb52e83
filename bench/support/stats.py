"""Small statistics and progress helpers for the benchmarks (stdlib only)."""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile; NaN for an empty sample."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    """The middle value, the upper one of an even count: always one of the values (a round's
    figure, not an average of two rounds)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def ms(seconds: float) -> float:
    return seconds * 1000.0


def timed(call: Callable[[], object]) -> float:
    """The seconds `call()` took."""
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def mean_seconds(call: Callable[[int], object], count: int) -> float:
    """The mean seconds of `call(i)` for each i below `count`, timed together."""
    started = time.perf_counter()
    for i in range(count):
        call(i)
    return (time.perf_counter() - started) / count


class Counter:
    """A thread-safe counter of events, for progress lines and rates."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0

    def add(self, n: int = 1) -> None:
        with self._lock:
            self.value += n


class Progress:
    """Redraws one status line (stderr) every `every` seconds until stopped.

    On a terminal the line is rewritten in place; otherwise a new line every 5 s.
    """

    def __init__(self, render: Callable[[float], str], every: float = 0.5) -> None:
        self._render = render
        self._tty = sys.stderr.isatty()
        self._every = every if self._tty else 5.0
        self._stop = threading.Event()
        self._started = time.perf_counter()
        self._thread = threading.Thread(target=self._run, daemon=True, name="progress")

    def __enter__(self) -> Progress:
        self._started = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._draw(final=True)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self._draw()

    def _draw(self, final: bool = False) -> None:
        line = self._render(time.perf_counter() - self._started)
        if self._tty:
            sys.stderr.write(f"\r\x1b[2K{line}" + ("\n" if final else ""))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()


def wait_until(
    check: Callable[[], bool],
    within: float,
    poll: float = 0.1,
    waiting: Callable[[], str] | None = None,
) -> bool:
    """Whether `check()` came to hold within `within` s (asked every `poll` s); `waiting`, if
    given, says every 5 s what is awaited."""
    started = said = time.monotonic()
    while not check():
        now = time.monotonic()
        if now > started + within:
            return False
        if waiting is not None and now - said >= 5:
            said = now
            print(f"{waiting()}, {now - started:.0f} s", file=sys.stderr, flush=True)
        time.sleep(poll)
    return True


@contextmanager
def in_background(targets: Iterable[Callable[[threading.Event], object]]) -> Iterator[None]:
    """Each `target(stop)` in a daemon thread while the block runs; then `stop` is set and each
    thread given 35 s to end."""
    stop = threading.Event()
    threads = [threading.Thread(target=target, args=(stop,), daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=35)


def in_threads(target: Callable[..., object], shares: Iterable[tuple[object, ...]]) -> None:
    """One thread per share, `target(*share)`, all started, then all joined; the first
    failure raised."""
    failures: list[BaseException] = []

    def run(*share: object) -> None:
        try:
            target(*share)
        except BaseException as error:  # noqa: BLE001 - raised below
            failures.append(error)

    threads = [threading.Thread(target=run, args=share, daemon=True) for share in shares]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def ms_percentiles(name: str, seconds: Sequence[float], *pcts: float) -> dict[str, float]:
    """{f"{name}_p{P}_ms": the P-th percentile of `seconds` in ms} for each P."""
    return {f"{name}_p{p:g}_ms": round(ms(percentile(seconds, p)), 2) for p in pcts}


def load_average() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())
