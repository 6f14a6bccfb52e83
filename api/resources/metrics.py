"""GET /metrics (Prometheus text format) and what the API measures for it.

Never rate-limited (no `limited` tag). With METRICS_TOKEN set it wants `Authorization: Bearer
<METRICS_TOKEN>` (401 otherwise); unset, anyone who reaches the port may scrape it, so keep it
off the public internet at the proxy (docs/operations.md).

Counted per request (in after_request, two lock-guarded writes to this process's file): the
latency histogram by route template. Read at scrape time: every process's files (the API's
workers and the RQ workers), the outbox lag from Postgres and the workers' heartbeats.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Iterator
from typing import Any

import redis
from flask import Blueprint, Flask, Response, request
from flask.typing import ResponseReturnValue
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from api.http.problems import problem_response
from api.http.request_log import STARTED
from api.services import services
from api.streams.hub import stream_slots
from events.operations import heartbeats, logs, metrics
from events.results import Committed

bp = Blueprint("metrics", __name__)
log = logging.getLogger("cardroom.metrics")
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


@bp.get("/metrics")
def scrape() -> ResponseReturnValue:
    token = services().settings.metrics_token
    if token:
        given = request.headers.get("Authorization", "").partition(" ")[2].strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            return problem_response(401, "unauthorized", "/metrics wants the METRICS_TOKEN")
    if metrics.multiprocess():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    live = CollectorRegistry()
    live.register(LiveFigures())
    return Response(body + generate_latest(live), content_type=CONTENT_TYPE)


class LiveFigures(Collector):
    """Figures read when scraped: the outbox (Postgres) and the workers' heartbeats (Redis).
    What cannot be read is left out, so an alert on a missing series fires."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        svc = services()
        try:
            yield _open_streams()
        except redis.RedisError:
            log.warning("the stream counts could not be read for /metrics")
        try:
            lag, unfinished = svc.work.lag(timeout=2)
            yield GaugeMetricFamily(
                "cardroom_outbox_lag_seconds",
                "Age of the oldest outbox row not yet done (pending or enqueued); 0 for none.",
                value=lag,
            )
            yield GaugeMetricFamily(
                "cardroom_outbox_unfinished", "Outbox rows not yet done.", value=unfinished
            )
        except Exception:
            log.warning("could not read the outbox for /metrics", exc_info=True)
        try:
            beats = heartbeats.read(svc.redis, svc.settings.queue_name)
        except Exception:
            log.warning("could not read the heartbeats for /metrics", exc_info=True)
            return
        yield GaugeMetricFamily(
            "cardroom_workers_alive",
            f"Workers that beat within {heartbeats.SILENT_AFTER_SECONDS:.0f} s.",
            value=beats.alive,
        )
        if beats.full_seconds is not None:
            yield GaugeMetricFamily(
                "cardroom_worker_heartbeat_age_seconds",
                "Since the newest heartbeat of a full worker (relay, sweeper, timers).",
                value=beats.full_seconds,
            )


def _open_streams() -> GaugeMetricFamily:
    """Every stream open now, as the stream counts in Redis hold them (api/streams/slots.py):
    those of every API process, and those Pushpin holds."""
    family = GaugeMetricFamily(
        "cardroom_streams_open",
        "Event streams open now, over the API processes.",
        labels=["viewer"],
    )
    svc = services()
    seated, watching = stream_slots(svc.settings, svc.redis).open_streams()
    family.add_metric(["seat"], seated)
    family.add_metric(["spectator"], watching)
    return family


def install_metrics(app: Flask) -> None:
    """The /metrics view and the per-request latency; counting commands' events goes through
    `CountedCommands`."""
    app.register_blueprint(bp)

    @app.after_request
    def _observe(response: Response) -> Response:
        started = request.environ.get(STARTED)
        if started is not None:
            rule = request.url_rule
            route = rule.rule if rule is not None else "<unmatched>"
            series = _request_series(request.method, route, response.status_code)
            series.observe(time.perf_counter() - started)
        return response


# HTTP's methods; any other a client sends counts as "other", so that made-up methods cannot
# grow the series without bound.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_series: dict[tuple[str, str, int], Any] = {}


def _request_series(method: str, route: str, status: int) -> Any:
    """The latency histogram's series for one method, route and status, found once: looking a
    series up by its labels takes the histogram's lock and checks every label each time."""
    key = (method if method in METHODS else "other", route, status)
    series = _series.get(key)
    if series is None:
        series = _series[key] = metrics.REQUEST_SECONDS.labels(key[0], route, str(status))
    return series


class CountedCommands:
    """The app's Commands, counting the events clients' actions append by game type and
    putting the game and its new version in the log context. Everything else passes through."""

    def __init__(self, commands: Any) -> None:
        self._commands = commands

    def __getattr__(self, name: str) -> Any:
        return getattr(self._commands, name)

    def act(self, *args: Any, **kwargs: Any) -> Any:
        return self._counted(self._commands.act(*args, **kwargs))

    def act_as(self, *args: Any, **kwargs: Any) -> Any:
        seat, result = self._commands.act_as(*args, **kwargs)
        return seat, self._counted(result)

    def _counted(self, result: Any) -> Any:
        if isinstance(result, Committed):
            game_type = result.table.game_type.id
            metrics.ACTIONS.labels(game_type).inc()
            metrics.ACTION_EVENTS.labels(game_type).inc(len(result.events))
        logs.bind(version=result.version)
        return result

    def create(self, game_id: Any, *args: Any, **kwargs: Any) -> Any:
        result = self._commands.create(game_id, *args, **kwargs)
        logs.bind(game_id=str(game_id), version=result.version)
        return result

    def join(self, *args: Any, **kwargs: Any) -> Any:
        result = self._commands.join(*args, **kwargs)
        logs.bind(version=result.version)
        return result

    def leave(self, *args: Any, **kwargs: Any) -> Any:
        result = self._commands.leave(*args, **kwargs)
        logs.bind(version=result.version)
        return result
