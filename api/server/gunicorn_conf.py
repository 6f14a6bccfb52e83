"""How gunicorn serves the API: `gunicorn -c python:api.server.gunicorn_conf api.server.wsgi:app`,
as `make run` and the Docker image both start it (the bind address comes from their command line).

gevent workers: every connection is a greenlet, so an open event stream costs a few kilobytes
and no thread, and a client that sends its headers slowly holds only its own greenlet. psycopg
(3.2 and later) and redis-py cooperate once gunicorn has monkey-patched the worker, which it
does before it imports the app. docs/streams.md has the measurements behind the choice.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from typing import Any

from api.server.garbage import collect_garbage_rarely
from api.server.gunicorn_worker import (
    FIELD_BYTES_LIMIT,
    LINE_LIMIT,
    ProblemWorker,
    fields_limit,
)
from events.operations.settings import settings_or_exit

_settings = settings_or_exit()  # a bad setting: one line naming it, exit status 2


def _metrics_directory() -> None:
    """Every worker writes its metrics to files in one directory, so GET /metrics adds up all
    workers (events/operations/metrics.py). `make run` and Docker name one that they share with the
    RQ workers; otherwise this server makes its own, removed when the master exits. Set before
    anything imports prometheus_client: it picks its mode then."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
        return
    made = tempfile.mkdtemp(prefix="cardroom-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = made
    master = os.getpid()

    def remove() -> None:
        if os.getpid() == master:  # not in a worker, which inherits atexit's list
            shutil.rmtree(made, ignore_errors=True)

    atexit.register(remove)


_metrics_directory()
# gevent, answering what gunicorn refuses itself as problem+json (api/server/gunicorn_worker.py).
worker_class = "api.server.gunicorn_worker.ProblemWorker"
# Secrets redacted from whatever of a request gunicorn's log lines quote
# (api/server/gunicorn_log.py).
logger_class = "api.server.gunicorn_log.RedactingLogger"
workers = _settings.web_workers
# The API's limits on a request's head (api/server/gunicorn_worker.py), which HAProxy's front
# door applies as well (docker/haproxy.cfg); behind proxies, with room for the fields they add.
limit_request_line = LINE_LIMIT
limit_request_fields = fields_limit(behind_proxies=_settings.trusted_proxies > 0)
limit_request_field_size = FIELD_BYTES_LIMIT
ProblemWorker.behind_proxies = _settings.trusted_proxies > 0
worker_connections = _settings.web_connections
loglevel = _settings.log_level.lower()
graceful_timeout = 10
keepalive = 5
# gunicorn >= 23 opens a control socket at one fixed path per user: two servers on one host
# would share it, and nothing here uses it.
control_socket_disable = True


def child_exit(server: Any, worker: Any) -> None:
    """In the master: the live gauges of a worker that exited (even killed) stop counting (its
    counters and histograms stay in the sums, as they should)."""
    from prometheus_client import multiprocess

    from events.operations.metrics import process_id

    multiprocess.mark_process_dead(process_id(worker.pid))


def post_worker_init(worker: Any) -> None:
    collect_garbage_rarely()
    _end_streams_on_shutdown(worker)


def _end_streams_on_shutdown(worker: Any) -> None:
    """Once the worker is told to stop (SIGTERM: `alive` turns false), end every open stream at
    once, cleanly (its client resumes elsewhere with Last-Event-ID), rather than holding the
    worker until graceful_timeout cuts them. Watched from a greenlet, not a signal handler: a
    handler may run at any point of any greenlet."""
    import gevent  # imported here: this module is read before gunicorn patches the worker

    def watch() -> None:
        while worker.alive:
            gevent.sleep(0.1)
        _close_streams(worker.wsgi)

    gevent.spawn(watch)


def _close_streams(app: Any) -> None:
    """Ends the games' streams and the players' notice streams."""
    hub = getattr(app, "extensions", {}).get("cardroom_streams")
    if hub is not None:
        hub.close()


def worker_exit(server: Any, worker: Any) -> None:
    """Close the database pool while the worker's event loop still runs: left to the
    interpreter's exit, its threads (greenlets here) can no longer be joined."""
    services = getattr(worker.wsgi, "extensions", {}).get("cardroom")
    if services is not None:
        services.pool.close()
