"""`python -m workers`: one RQ worker (non-forking) plus the outbox relay, the sweeper and the
turn timers.

`--jobs-only` runs just the RQ worker, to add job capacity beside a full one.
SimpleWorker runs jobs in this process: forking per job would cost a new database pool
(and several milliseconds) for every bot move.
"""

from __future__ import annotations

import argparse
import logging
import threading

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from events.settings import LOG_FORMAT
from workers import context
from workers.relay import relay_forever, sweep_forever
from workers.timers import fire_forever


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument("--jobs-only", action="store_true", help="no relay, no sweeper")
    args = parser.parse_args()
    settings = context.settings()
    logging.basicConfig(level=settings.log_level, format=LOG_FORMAT)
    stop = threading.Event()
    if not args.jobs_only:
        threading.Thread(target=relay_forever, args=(stop,), daemon=True, name="relay").start()
        threading.Thread(target=sweep_forever, args=(stop,), daemon=True, name="sweeper").start()
        threading.Thread(target=fire_forever, args=(stop,), daemon=True, name="timers").start()
    worker = SimpleWorker(
        context.queues(), connection=context.redis_connection(), serializer=JSONSerializer
    )
    try:
        worker.work(logging_level=settings.log_level)
    finally:
        stop.set()


if __name__ == "__main__":
    main()
