"""The HTTP API: a Flask app factory with one blueprint per resource."""

from __future__ import annotations

import logging

import redis
from flask import Flask

from api import docs, game_types, games, health
from api.json_provider import SafeJSONProvider
from api.problems import register_error_handlers
from api.request_log import install_request_log
from api.services import Services
from events.db import make_pool
from events.handler import Handler
from events.settings import LOG_FORMAT, Settings, load_settings
from events.signing import load_or_create_signer

MAX_BODY_BYTES = 64 * 1024


class CardroomFlask(Flask):
    json_provider_class = SafeJSONProvider


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or load_settings()
    logging.basicConfig(level=settings.log_level, format=LOG_FORMAT)
    app = CardroomFlask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    pool = make_pool(settings.database_url, settings.db_pool_size)
    signer = load_or_create_signer(settings.audit_key_path)
    app.extensions["cardroom"] = Services(
        settings=settings,
        pool=pool,
        handler=Handler(pool, signer=signer),
        signer=signer,
        redis=redis.Redis.from_url(settings.redis_url, socket_timeout=2),
    )
    for blueprint in (games.bp, game_types.bp, health.bp, docs.bp):
        app.register_blueprint(blueprint)
    register_error_handlers(app)
    install_request_log(app)
    return app
