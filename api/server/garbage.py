"""How the gunicorn workers, which may hold thousands of streams, collect garbage. Imports
nothing of the app: gunicorn's master reads it."""

from __future__ import annotations

import gc


def collect_garbage_rarely() -> None:
    """A process holding thousands of streams tracks hundreds of thousands of objects, and a
    full collection of them stopped its event loop for ~300 ms (every request and stream
    waited; docs/streams.md). The app's own objects, loaded by now, are frozen out of
    collections, and collections run less often: almost nothing here makes reference cycles."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
