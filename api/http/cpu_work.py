"""CPU-heavy work of a request, run where it does not stop the worker's other connections.

A gevent worker serves all its connections on one thread: an audit that re-decides a long game
(100 ms and more of CPU) froze every other request of the process meanwhile, so 64 connections
asking for audits pushed other clients' reads from 3 ms to seconds. Run in a native thread of
gevent's pool, the work shares the interpreter with the event loop, which gets its turn at every
switch interval (5 ms) and goes on serving. Outside a gevent worker the work runs in place.
The work must not touch the database or any other gevent-patched socket or lock: only the pure
part of a request (re-deciding a log already read) goes there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def offload(work: Callable[..., T], *args: Any) -> T:
    from gevent import get_hub, monkey

    if not monkey.is_module_patched("threading"):
        return work(*args)
    done: T = get_hub().threadpool.apply(
        work, args
    )  # gevent is untyped: apply gives what work does
    return done
