"""Rate limits (flask-limiter, counted in the Redis the workers already use), per client address
and per seat token, for four kinds of request: creating games (bot-only tables have a quota of
their own), acting, reading, and open streams (api/streams/slots.py). Over a limit: 429
`rate-limited` with `Retry-After`. Every limit is a setting; RATE_LIMITS=off turns them off.

Should Redis be unreachable, each process counts in its own memory meanwhile: a Redis outage
degrades the limits, it never fails a request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from flask import Flask, Response, current_app, request
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter, RouteLimit

from api.http.limit_buckets import buckets_of, install_buckets
from api.http.limit_keys import LIMITER, bears_reusable_token, client_address, token_key
from api.http.pushpin import through_pushpin
from events.operations import metrics
from events.operations.settings import Settings

LIMITED = "_cardroom_limited"  # the kind of limit a view is tagged with
View = TypeVar("View", bound=Callable[..., Any])


def install_limits(app: Flask, settings: Settings) -> None:
    """A limiter of this app's own and its limits on every tagged view, counted in Redis, so
    every API process sees the same counts. A request counts once (one round trip): against its
    seat token when it has one, else against its client address."""
    limiter = Limiter(
        key_func=client_address,
        app=app,
        enabled=settings.rate_limits.strip().lower() != "off",
        storage_uri=settings.redis_url or "memory://",
        storage_options={"socket_timeout": 1, "socket_connect_timeout": 1},
        in_memory_fallback_enabled=True,
        strategy="fixed-window",
        headers_enabled=False,  # our 429 sets Retry-After; other answers keep theirs
        swallow_errors=True,
        key_prefix=f"{settings.queue_name}-limits",
    )
    app.extensions[LIMITER] = limiter  # flask-limiter keeps only a weak reference
    # Every limit here sits on its view (no default, application or blueprint limits), so the
    # limiter's own check before each request would find nothing to count: skip its cost.
    hooks = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in hooks:  # not there when limits are off
        hooks.remove(limiter._check_request_limit)
    if not limiter.enabled:
        return  # RATE_LIMITS=off: a disabled limiter's wrapper still costs every request
    install_buckets(app, limiter, settings)  # costly reads, unresolved credentials
    for endpoint, view in list(app.view_functions.items()):
        kind = getattr(view, LIMITED, None)
        if kind is not None:
            # Every view of this app is a plain function (none is async), which the limit wraps.
            plain = cast(Callable[..., ResponseReturnValue], view)
            app.view_functions[endpoint] = _limits(limiter, settings, kind)(plain)


def limited(kind: str) -> Callable[[View], View]:
    """Tags a view with its kind of limit ("create", "actions", "reads"), for install_limits."""

    def tag(view: View) -> View:
        setattr(view, LIMITED, kind)
        return view

    return tag


limited_creation = limited("create")


def charge_costly_read(token: str | None) -> None:
    """A read that does real work counts once more, in the costly-reads bucket of its token
    and address (api/http/limit_buckets.py); 429 past it. Nothing when rate limits are off."""
    buckets = buckets_of(current_app)
    if buckets is not None:
        buckets.charge_costly_read(token and token_key(), client_address())


@contextmanager
def bot_table_quota(creator: str, applies: bool) -> Iterator[None]:
    """Around making (or leaving to its bots) a table of bots alone, when `applies`: 429 if the
    creator's quota is spent, counted once the body of the `with` succeeded."""
    buckets = buckets_of(current_app) if applies else None
    if buckets is not None:
        buckets.check_bot_table(creator)
    yield
    if buckets is not None:
        buckets.count_bot_table(creator)


@contextmanager
def queue_join_quota(player: str) -> Iterator[None]:
    """Around a player's queue join: 429 if its quota is spent, counted once the body of the
    `with` succeeded."""
    buckets = buckets_of(current_app)
    if buckets is not None:
        buckets.check_queue_join(player)
    yield
    if buckets is not None:
        buckets.count_queue_join(player)


def _limits(limiter: Limiter, settings: Settings, kind: str) -> RouteLimit:
    if kind == "create":
        return _creation_limits(limiter, settings)
    if kind == "players":
        return limiter.limit(
            settings.rate_limit_players, key_func=client_address, scope="players",
            deduct_when=_created, on_breach=lambda _: _count_breach("players"),
        )  # fmt: skip
    per_token, per_address = (
        (settings.rate_limit_reads, settings.rate_limit_reads_per_address)
        if kind == "reads"
        else (settings.rate_limit_actions, settings.rate_limit_actions_per_address)
    )
    return limiter.limit(
        lambda: per_token if bears_reusable_token() else per_address,
        key_func=lambda: token_key() if bears_reusable_token() else client_address(),
        scope=kind,
        exempt_when=_pushpin_coming_back,
        on_breach=lambda _: _count_breach(f"{kind}-per-token" if bears_reusable_token() else
                                          f"{kind}-per-address"),
    )  # fmt: skip


def _pushpin_coming_back() -> bool:
    """Pushpin asking a held stream's next link (api/streams/grip.py): the client's stream was
    counted when it opened, and a forged lease is refused at once."""
    return "lease" in request.args and through_pushpin()


def _count_breach(limit: str) -> None:
    """A 429 of this limit, for /metrics (`cardroom_rate_limited_total{limit=...}`)."""
    metrics.RATE_LIMITED.labels(limit).inc()


def _created(response: Response) -> bool:
    return response.status_code == 201  # refused bodies cost no quota


def _creation_limits(limiter: Limiter, settings: Settings) -> RouteLimit:
    """Games created per client address. Tables of bots alone, which only cost worker time,
    have a smaller quota of their own (api/http/limit_buckets.py, `bot_tables`)."""
    return limiter.limit(
        settings.rate_limit_create, key_func=client_address, scope="create",
        deduct_when=_created, on_breach=lambda _: _count_breach("create"),
    )  # fmt: skip
