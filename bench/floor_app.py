"""The floor of bench/floor.py: about the least an action can cost through HTTP here.

A Flask app whose POST locks one row and appends one event in a transaction (psycopg 3 pool in
autocommit mode, as Cardroom's), and whose GET reads that row: the same round trips as a
Cardroom action (BEGIN, lock, one append statement, COMMIT) with none of its Python work.
bench/floor.py serves it with Cardroom's own gunicorn settings:

    DATABASE_URL=... python -m gunicorn bench.floor_app:app -c python:api.gunicorn_conf -b ...

Only the worker imports this module, after gunicorn's gevent worker has monkey-patched.
"""

from __future__ import annotations

import os
import uuid

from flask import Flask, jsonify, request
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


def create_app(database_url: str, pool_size: int) -> Flask:
    pool = ConnectionPool(
        database_url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=True
    )
    app = Flask(__name__)

    @app.post("/games")
    def create_game():
        game = uuid.uuid4()
        with pool.connection() as conn:
            conn.execute("INSERT INTO bench_floor_games (id, version) VALUES (%s, 0)", (game,))
        return jsonify({"id": str(game), "version": 0}), 201

    @app.get("/games/<uuid:game>")
    def show_game(game: uuid.UUID):
        with pool.connection() as conn:
            row = conn.execute(
                "SELECT version FROM bench_floor_games WHERE id = %s", (game,)
            ).fetchone()
        if row is None:
            return jsonify({"title": "no such game"}), 404
        return jsonify({"id": str(game), "version": row[0]})

    @app.post("/games/<uuid:game>/actions")
    def act(game: uuid.UUID):
        action = request.get_json()
        with pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT version FROM bench_floor_games WHERE id = %s FOR UPDATE", (game,)
            ).fetchone()
            if row is None:
                return jsonify({"title": "no such game"}), 404
            version = row[0] + 1
            conn.execute(APPEND, (game, version, Jsonb(action), version, game))
        return jsonify({"version": version}), 201

    return app


def _app_from_environment() -> Flask | None:
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None  # imported for SCHEMA, not served
    return create_app(url, int(os.environ.get("DB_POOL_SIZE") or 10))


app = _app_from_environment()
