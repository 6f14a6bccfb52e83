"""The Flask app factory: one blueprint per resource, and the rules every request passes."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

import redis
from flask import Flask
from flask.sessions import NullSession, SessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from api import streams
from api.http.bodies import install_body_reader
from api.http.browsers import install_browser_rules
from api.http.cpu_work import offload
from api.http.json_provider import SafeJSONProvider
from api.http.limits import install_limits
from api.http.problems import register_error_handlers
from api.http.request_log import install_request_log
from api.resources import game_types, games, health, players, public_log
from api.resources.metrics import CountedCommands, install_metrics
from api.server.gunicorn_log import REDACT
from api.services import Services
from api.web import client, spec_pages
from events.bootstrap import bootstrap
from events.operations import logs
from events.operations.settings import Settings, load_settings

MAX_BODY_BYTES = 64 * 1024


class NoSessions(SessionInterface):
    """Cardroom keeps no cookie session (a seat's token is a bearer header): every request
    gets the same read-only null session, rather than a signer made, and found missing, per
    request."""

    _none = NullSession()

    def open_session(self, app: Flask, request: Any) -> NullSession:
        return self._none

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        return None


class CardroomFlask(Flask):
    json_provider_class = SafeJSONProvider
    session_interface = NoSessions()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Weak keys: a function made for one request leaves with it.
        self._coroutines: WeakKeyDictionary[Callable[..., Any], bool] = WeakKeyDictionary()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask asks, for every view and hook of every request, whether it is a coroutine
        function; the answer never changes for a function, so it is kept."""
        try:
            coroutine = self._coroutines.get(func)
        except TypeError:  # a callable that takes no weak reference
            return super().ensure_sync(func)
        if coroutine is None:
            coroutine = self._coroutines[func] = inspect.iscoroutinefunction(func)
        return self.async_to_sync(func) if coroutine else func


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or load_settings()
    logs.configure(settings.log_level, settings.log_format, [REDACT])
    app = CardroomFlask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    cardroom = bootstrap(settings, offload=offload)
    app.extensions["cardroom"] = Services(
        settings=settings,
        pool=cardroom.pool,
        # Counts the actions and passes every other method through to Commands (by
        # __getattr__, which mypy cannot follow): to the views it is Commands.
        commands=CountedCommands(cardroom.commands),  # type: ignore[arg-type]
        automation=cardroom.automation,
        queries=cardroom.queries,
        signer=cardroom.signer,
        redis=redis.Redis.from_url(settings.redis_url, socket_timeout=2),
        players=cardroom.players,
        webhooks=cardroom.webhooks,
        queue=cardroom.queue,
        matcher=cardroom.matcher,
        work=cardroom.work,
        public_log=cardroom.public_log,
    )
    for blueprint in (
        games.bp,
        game_types.bp,
        health.bp,
        spec_pages.bp,
        client.bp,
        players.bp,
        streams.bp,
        public_log.bp,
    ):
        app.register_blueprint(blueprint)
    register_error_handlers(app)
    # First: the hooks below may read the body, and nothing may wait on it holding a lock.
    install_body_reader(app, MAX_BODY_BYTES, settings.body_timeout_seconds)
    install_browser_rules(app, settings.cors_origins)
    install_limits(app, settings)
    if settings.trusted_proxies:  # the client's address, as the proxies in front saw it
        # Flask's documented way to add WSGI middleware; mypy takes wsgi_app for a method.
        proxied = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)
        app.wsgi_app = proxied  # type: ignore[method-assign]
    install_request_log(app)
    install_metrics(app)  # not rate-limited: registered after install_limits tagged the views
    return app
