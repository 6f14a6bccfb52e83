"""Liveness and readiness.

/readyz is 503 only when this API cannot serve (Postgres or Redis unreachable). Silent workers
or a lagging outbox leave it ready, named in `degraded`: the API still serves every request
(only bots and scoring wait), and a load balancer or Docker dropping it would help nobody.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from api.http.problems import problem_response
from api.services import services
from events.operations import heartbeats

bp = Blueprint("health", __name__)
OUTBOX_LAG_DEGRADED_SECONDS = 30.0  # the sweeper re-enqueues after SWEEP_AFTER_SECONDS (5)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz() -> ResponseReturnValue:
    svc = services()
    failed = []
    lag: tuple[float, int] | None = None
    try:
        lag = svc.work.lag(timeout=2)
    except Exception:
        failed.append("postgres")
    beats = None
    try:
        beats = heartbeats.read(svc.redis, svc.settings.queue_name)
    except Exception:
        failed.append("redis")
    if failed or lag is None or beats is None:
        return problem_response(503, "not-ready", f"unavailable: {', '.join(failed)}")
    degraded = []
    if not beats.relaying:
        degraded.append("workers")
    if lag[0] > OUTBOX_LAG_DEGRADED_SECONDS:
        degraded.append("outbox")
    body: dict[str, Any] = {
        "status": "ready",
        "postgres": "ok",
        "redis": "ok",
        "workers": {
            "status": "ok" if beats.relaying else "silent",
            "last_heartbeat_seconds": _rounded(beats.full_seconds),
            "alive": beats.alive,
            "silent_after_seconds": heartbeats.SILENT_AFTER_SECONDS,
        },
        "outbox": {"lag_seconds": _rounded(lag[0]), "unfinished": lag[1]},
        "degraded": degraded,
    }
    return jsonify(body)


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 3)
