"""The floor of bench/floor.py: about the least an action can cost through HTTP here.

A Flask app whose POST locks one row and appends one event in a transaction (a psycopg 3 pool
in autocommit mode, as Cardroom's) and whose GET reads that row: a Cardroom action's round
trips with none of its Python work. With FLOOR_VIEWS_FILE (per game type, a Cardroom `view` and
`answer`), `/views/<game type>/games/...` answers the same with those bodies. gunicorn loads
`bench.floor_app:from_environment()`, so each worker (not the master) builds the app.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import psycopg
from flask import Flask, Response, jsonify, request
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS bench_floor_games (id uuid PRIMARY KEY, version int NOT NULL)",
    "CREATE TABLE IF NOT EXISTS bench_floor_events (game_id uuid NOT NULL, version int NOT NULL,"
    " data jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(),"
    " PRIMARY KEY (game_id, version))",
)
APPEND = (
    "WITH ins AS (INSERT INTO bench_floor_events (game_id, version, data) VALUES (%s, %s, %s))"
    " UPDATE bench_floor_games SET version = %s WHERE id = %s"
)


def create_schema(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        for statement in SCHEMA:
            conn.execute(statement)


def create_app(
    database_url: str, pool_size: int, views: dict[str, dict[str, Any]] | None = None
) -> Flask:
    pool = ConnectionPool(
        database_url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=True
    )
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # as Cardroom's provider
    bodies_of = {"": {}, **(views or {})}  # by game type; the plain floor's are its own

    @app.get("/readyz")
    def ready() -> Response:  # bench/support/service.py's readiness check, as Cardroom's
        return jsonify({"status": "ready"})

    @app.post("/games")
    @app.post("/views/<kind>/games")
    def create_game(kind: str = "") -> tuple[Response, int]:
        game = uuid.uuid4()
        with pool.connection() as conn:
            conn.execute("INSERT INTO bench_floor_games (id, version) VALUES (%s, 0)", (game,))
        return jsonify({"id": str(game), "version": 0}), 201

    @app.get("/games/<uuid:game>")
    @app.get("/views/<kind>/games/<uuid:game>")
    def show_game(game: uuid.UUID, kind: str = "") -> Response | tuple[Response, int]:
        with pool.connection() as conn:
            row = conn.execute(
                "SELECT version FROM bench_floor_games WHERE id = %s", (game,)
            ).fetchone()
        bodies = bodies_of.get(kind)
        if row is None or bodies is None:
            return jsonify({"title": "no such game"}), 404
        return jsonify({**bodies.get("view", {}), "id": str(game), "version": row[0]})

    @app.post("/games/<uuid:game>/actions")
    @app.post("/views/<kind>/games/<uuid:game>/actions")
    def act(game: uuid.UUID, kind: str = "") -> tuple[Response, int]:
        action = request.get_json()
        bodies = bodies_of.get(kind)
        if bodies is None:
            return jsonify({"title": "no such game"}), 404
        with pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT version FROM bench_floor_games WHERE id = %s FOR UPDATE", (game,)
            ).fetchone()
            if row is None:
                return jsonify({"title": "no such game"}), 404
            version = row[0] + 1
            conn.execute(APPEND, (game, version, Jsonb(action), version, game))
        return jsonify({**bodies.get("answer", {}), "version": version}), 201

    return app


def from_environment() -> Flask:
    """The app gunicorn serves: importing this module (a test does) opens no pool."""
    views_file = os.environ.get("FLOOR_VIEWS_FILE")
    views = json.loads(Path(views_file).read_text()) if views_file else None
    return create_app(os.environ["DATABASE_URL"], int(os.environ.get("DB_POOL_SIZE") or 10), views)
