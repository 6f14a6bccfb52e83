"""Liveness and readiness."""

from __future__ import annotations

from flask import Blueprint, jsonify

from api.problems import problem_response
from api.services import services

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz():
    svc = services()
    failed = []
    try:
        with svc.pool.connection(timeout=2) as conn:
            conn.execute("SELECT 1")
    except Exception:
        failed.append("postgres")
    try:
        svc.redis.ping()
    except Exception:
        failed.append("redis")
    if failed:
        return problem_response(503, "not-ready", f"unavailable: {', '.join(failed)}")
    return jsonify({"status": "ready", "postgres": "ok", "redis": "ok"})
