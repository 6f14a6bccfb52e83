"""How long a searching bot may think: a budget it asks once per iteration of its search.

The domain reads no clock of its own. Production hands in a `Deadline` over the worker's clock;
tests and tournaments hand in `Iterations`, so a seed reproduces the very same decision on any
machine, however fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Budget(Protocol):
    def exhausted(self) -> bool:
        """Asked before each iteration: True once the search must answer with what it has."""
        ...


class Iterations:
    """A fixed number of search iterations: the same work, and answer, wherever it runs."""

    def __init__(self, count: int) -> None:
        self.left = count

    def exhausted(self) -> bool:
        if self.left <= 0:
            return True
        self.left -= 1
        return False


class Deadline:
    """Time on a clock the caller hands in (e.g. time.monotonic), in seconds from now."""

    def __init__(self, clock: Callable[[], float], seconds: float) -> None:
        self._clock = clock
        self._until = clock() + seconds

    def exhausted(self) -> bool:
        return self._clock() >= self._until
