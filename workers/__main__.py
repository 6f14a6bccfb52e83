"""`python -m workers`: one RQ worker (non-forking) plus the outbox relay, the sweeper, the
turn timers, the matchmaker and the public log's appender (one active at a time over every
worker process); when Pushpin holds the streams, the stream publisher; and threads that
deliver webhooks, with their own relay and sweeper (workers/webhooks.py).

`--jobs-only` runs just the RQ worker, to add job capacity beside a full one.
SimpleWorker runs jobs in this process: forking per job would cost a new database pool
(and several milliseconds) for every bot move. Every worker beats a heartbeat in Redis
(events/operations/heartbeats.py) that GET /readyz reports.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from types import FrameType

import redis
from rq import Queue, SimpleWorker
from rq.job import Job
from rq.serializers import JSONSerializer

from events.operations import heartbeats, logs
from workers import context
from workers.log_appender import append_forever
from workers.matcher import match_forever
from workers.relay import relay_forever, sweep_forever
from workers.stream_publisher import publish_forever
from workers.timers import fire_forever
from workers.webhooks import start_threads as start_webhook_threads

log = logging.getLogger("cardroom.worker")


class ContextWorker(SimpleWorker):
    """Every line logged while a job runs, RQ's own included, names the job, game and version
    (a job's arguments: game id, version, work)."""

    asked_to_stop = False  # SIGTERM/SIGINT: RQ sets nothing we may read when it was idle

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.asked_to_stop = True
        # RQ leaves its signal handler unannotated (the exclusion in pyproject.toml does not
        # reach a call through super()).
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    def execute_job(self, job: Job, queue: Queue) -> None:
        game_id, version = (list(job.args) + [None, None])[:2]
        logs.bind(job_id=job.id, game_id=game_id, version=version)
        try:
            super().execute_job(job, queue)
        finally:
            logs.clear()


def beat_forever(stop: threading.Event, who: str) -> None:
    settings = context.settings()
    while True:
        try:
            heartbeats.beat(context.redis_connection(), settings.queue_name, who)
        except Exception:
            log.warning("heartbeat failed; retrying", exc_info=True)
        if stop.wait(heartbeats.BEAT_SECONDS):
            break
    try:
        heartbeats.stop(context.redis_connection(), settings.queue_name, who)
    except Exception:
        pass  # it goes silent by itself


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m workers")
    parser.add_argument(
        "--jobs-only", action="store_true", help="no relay, sweeper, timers, matcher, log appender"
    )
    args = parser.parse_args()
    settings = context.settings()
    logs.configure(settings.log_level, settings.log_format)
    stop = threading.Event()
    if not args.jobs_only:
        threading.Thread(target=relay_forever, args=(stop,), daemon=True, name="relay").start()
        threading.Thread(target=sweep_forever, args=(stop,), daemon=True, name="sweeper").start()
        threading.Thread(target=fire_forever, args=(stop,), daemon=True, name="timers").start()
        threading.Thread(target=match_forever, args=(stop,), daemon=True, name="matcher").start()
        threading.Thread(
            target=append_forever, args=(stop,), daemon=True, name="log-appender"
        ).start()
        if settings.pushpin_urls:  # Pushpin holds the streams: publish each event to it
            threading.Thread(
                target=publish_forever, args=(stop,), daemon=True, name="publisher"
            ).start()
    start_webhook_threads(stop, relay=not args.jobs_only)
    who = heartbeats.member(full=not args.jobs_only)
    beating = threading.Thread(target=beat_forever, args=(stop, who), daemon=True, name="beat")
    beating.start()
    try:
        while True:  # RQ's loop quits on a Redis error outside its wait for jobs: start it again
            worker = None
            try:
                worker = ContextWorker(
                    context.queues(),
                    connection=context.redis_connection(),
                    serializer=JSONSerializer,
                )
                worker.work(logging_level=settings.log_level)
            except redis.RedisError as error:
                log.warning("the RQ worker lost Redis: %s", error)
            if worker is not None and worker.asked_to_stop:
                break
            log.warning("the RQ worker stopped without being asked to; starting it again in 1 s")
            time.sleep(1.0)
    finally:
        stop.set()
        beating.join(timeout=2)


if __name__ == "__main__":
    main()
