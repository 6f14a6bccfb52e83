"""Webhook deliveries on the workers: the relay that hands each endpoint's next due delivery to
RQ, the job that makes one attempt (events/webhooks/sending.py), the threads that run those
jobs, and the sweeper that hands lost ones to RQ again.

Deliveries have a queue of their own, run by threads of their own (WEBHOOK_THREADS in each
worker process): a receiver that takes its 5 s never holds up a bot's move, and bots never
hold up a delivery. A job's id is its delivery's id and attempt number, so handing the same
attempt to RQ twice keeps one job; a job leases its delivery before sending it, so two runs
of one attempt never send at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

import redis
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer
from rq.timeouts import TimerDeathPenalty

from events.operations.settings import Settings
from events.wakeups import WEBHOOK_CHANNEL, ListenerLost
from events.webhooks.records import LEASE_SECONDS, DueDelivery
from events.webhooks.sending import Pace
from workers import context

log = logging.getLogger("cardroom.webhooks")
BATCH = 100
AHEAD_PER_THREAD = 16  # deliveries in RQ at once, per delivering thread
POLL_SECONDS = 0.25  # retries come due and endpoints' spacing passes with no wake-up
SWEEP_SECONDS = 5.0
STALE_AFTER_SECONDS = 2 * LEASE_SECONDS  # in RQ that long, and no job holds it: lost
PURGE_AFTER_SECONDS = 7 * 86400.0  # finished deliveries and attempts are kept a week
PURGE_EVERY_SWEEPS = 120  # about every ten minutes
RECONNECT_FIRST, RECONNECT_MAX = 0.5, 10.0


def queue() -> Queue:
    name = f"{context.settings().queue_name}-webhooks"
    return Queue(name, connection=context.redis_connection(), serializer=JSONSerializer)


def pace(settings: Settings) -> Pace:
    return Pace(
        first_retry_seconds=settings.webhook_retry_seconds,
        failure_limit=settings.webhook_max_failures,
        allow_private=settings.webhooks_allow_private,
    )


def deliver_webhook(delivery_id: int, failures: int) -> str:
    """The RQ job: attempt `failures + 1` of the delivery."""
    return context.cardroom().outgoing.deliver(pace(context.settings()), delivery_id, failures)


def enqueue(*due: DueDelivery) -> None:
    """Hands RQ these attempts, in one round trip to Redis."""
    if not due:
        return
    target = queue()
    jobs = [
        Queue.prepare_data(
            deliver_webhook,
            args=(delivery.id, delivery.failures),
            job_id=delivery.job_id,
            timeout=int(LEASE_SECONDS),
            result_ttl=60,
            failure_ttl=86400,
        )
        for delivery in due
    ]
    target.enqueue_many(jobs)


def relay_due() -> int:
    """Hands RQ each endpoint's next due delivery, as many as the threads have room for."""
    settings = context.settings()
    spacing = 1.0 / settings.webhook_deliveries_per_second
    places = settings.webhook_threads * AHEAD_PER_THREAD
    # Enqueued before the commit: a failure leaves them waiting.
    return context.cardroom().outgoing.hand_out(places, BATCH, spacing, lambda due: enqueue(*due))


def relay_forever(stop: threading.Event) -> None:
    """Relays until stopped, woken by each commit that adds a delivery or records an attempt,
    and every POLL_SECONDS anyway (retries come due by the clock). A lost LISTEN connection
    is opened again, after 0.5 s doubling to 10 s."""
    delay = RECONNECT_FIRST
    while not stop.is_set():
        try:
            with context.cardroom().listen(WEBHOOK_CHANNEL) as listener:
                delay = RECONNECT_FIRST
                while not stop.is_set():
                    _relay_once()
                    for _ in listener.wakeups(timeout=POLL_SECONDS, stop_after=1):
                        pass
        except ListenerLost as error:
            log.warning("the webhook relay's LISTEN failed (%s); again in %.1f s", error, delay)
            _relay_once()
            stop.wait(delay)
            delay = min(RECONNECT_MAX, delay * 2)


def _relay_once() -> None:
    try:
        while relay_due() == BATCH:
            pass
    except Exception:
        log.exception("webhook relay failed; retrying")


def sweep_stale(older_than_seconds: float = STALE_AFTER_SECONDS) -> int:
    """Hands RQ again the deliveries it lost; how many."""

    def again(lost: Sequence[DueDelivery]) -> None:
        for delivery in lost:
            log.warning("re-enqueueing lost webhook delivery %s", delivery.job_id)
        enqueue(*lost)

    return context.cardroom().outgoing.hand_out_lost(older_than_seconds, again)


def purge_old() -> int:
    return context.cardroom().outgoing.purge(PURGE_AFTER_SECONDS)


def sweep_forever(stop: threading.Event) -> None:
    sweeps = 0
    while not stop.wait(SWEEP_SECONDS):
        try:
            sweep_stale()
            if sweeps % PURGE_EVERY_SWEEPS == 0:
                purge_old()
        except Exception:
            log.exception("webhook sweep failed; retrying")
        sweeps += 1


class DeliveryWorker(SimpleWorker):
    """An RQ worker that runs in a thread: no signal handlers (only the main thread may set
    them; the process's own worker stops it), and job timeouts by timer, not SIGALRM."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:
        pass


def deliver_forever(stop: threading.Event) -> None:
    """One delivering thread: an RQ worker on the webhooks queue, started again should it stop
    (a Redis error), until the process stops."""
    while not stop.is_set():
        try:
            worker = DeliveryWorker(
                [queue()], connection=context.redis_connection(), serializer=JSONSerializer
            )
            worker.work(logging_level=context.settings().log_level)
        except redis.RedisError as error:
            log.warning("a webhook worker lost Redis: %s", error)
        except Exception:
            log.exception("a webhook worker stopped")
        if not stop.is_set():
            time.sleep(1.0)


def start_threads(stop: threading.Event, relay: bool) -> None:
    """The delivering threads, and with `relay` the relay and the sweeper."""
    for i in range(context.settings().webhook_threads):
        name = f"webhooks-{i + 1}"
        threading.Thread(target=deliver_forever, args=(stop,), daemon=True, name=name).start()
    if relay:
        for target, name in ((relay_forever, "webhook-relay"), (sweep_forever, "webhook-sweeper")):
            threading.Thread(target=target, args=(stop,), daemon=True, name=name).start()
