"""Configuration, from environment variables only, each with a safe default."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_type_hints


@dataclass(frozen=True)
class Settings:
    database_url: str = ""
    redis_url: str = ""
    port: int = 8000
    data_dir: str = ".data"
    allow_fixed_deck: bool = False
    log_level: str = "INFO"
    log_format: str = "text"  # "json": one JSON object per log line
    web_workers: int = 2
    web_connections: int = 0  # per API process (gevent); 0: max_streams + 1000 (docs/streams.md)
    rq_workers: int = 1
    queue_name: str = "cardroom"
    db_pool_size: int = 10
    sweep_after_seconds: float = 5.0
    stream_heartbeat_seconds: float = 15.0  # a comment line at least this often
    stream_max_seconds: float = 0.0  # 0: a stream lasts until the game ends
    max_streams: int = 10_000  # open event streams of the server (all API processes); more: 503
    stream_seat_share: float = 0.1  # of max_streams that only seats may take, never spectators
    # Who holds the event streams under `make run`: "" or "embedded", the API's own workers;
    # "pushpin", Pushpin behind HAProxy's front door, for the stream routes only (docs/scaling.md).
    fanout: str = ""
    nodes: int = 1  # API nodes `make run` starts; 2 or more: behind HAProxy, streams on Pushpin
    # Pushpin's control APIs (comma-separated, e.g. http://127.0.0.1:5561), where the worker
    # publishes each committed event; "": no Pushpin, nothing published.
    pushpin_urls: str = ""
    audit_key_file: str = ""  # Ed25519 key that signs chain heads; "": DATA_DIR/audit-key.pem
    cors_origins: str = "*"  # comma-separated origins a browser may call from; "*": any
    trusted_proxies: int = 0  # proxies in front that set X-Forwarded-For (client addresses)
    rate_limits: str = "on"  # "off": no rate limit at all (load tests from one address)
    rate_limit_create: str = "600/minute;10000/hour"  # games created, per client address
    rate_limit_create_bots: str = "30/minute;500/hour"  # tables of bots alone, per address
    rate_limit_players: str = "20/hour"  # players created, per client address
    rate_limit_queue_joins: str = "10/minute"  # matchmaking queue joins, per player
    rate_limit_actions: str = "50/second"  # actions per seat token
    rate_limit_actions_per_address: str = "200/second"
    rate_limit_reads: str = "100/second"  # reads per seat token
    rate_limit_reads_per_address: str = "1000/second"
    # Reads that do real work (an audit not yet kept, an export), counted on top of a read.
    rate_limit_costly_reads: str = "5/second;60/minute"  # per token
    rate_limit_costly_reads_per_address: str = "10/second;300/minute"
    # Requests whose credential resolves to nothing (401), per address; past it, every request
    # of the address that carries a credential is 429 until the window ends.
    rate_limit_unresolved_per_address: str = "20/second;300/minute"
    max_streams_per_client: int = 20  # open streams per client address and per token; 0: no cap
    bot_budget_ms: int = 300  # how long a searching bot (level "strong") thinks per move
    work_ahead: int = 1  # jobs handed to RQ ahead of each worker process (workers/relay.py)
    metrics_token: str = ""  # "": GET /metrics is open; else it wants this bearer token
    body_timeout_seconds: float = 10.0  # a request body not complete by then: 408, closed
    # Webhooks (events/webhooks/): loopback and private addresses are refused unless this is
    # on (development and tests only); the rest are their delivery's pace and patience.
    webhooks_allow_private: bool = False
    webhook_deliveries_per_second: float = 10.0  # per endpoint
    webhook_retry_seconds: float = 5.0  # the first retry's delay; it doubles, up to 4 hours
    webhook_max_failures: int = 20  # one delivery failing this often disables its endpoint
    webhook_threads: int = 8  # deliveries sent at once by each worker process
    match_interval_seconds: float = 1.0  # how often each worker process's matcher passes
    log_origin: str = "cardroom.localhost/log"  # the public log's name in its checkpoints

    @property
    def audit_key_path(self) -> str:
        return self.audit_key_file or os.path.join(self.data_dir, "audit-key.pem")


# Connections of an API process beyond its streams, so requests are always served.
CONNECTIONS_BEYOND_STREAMS = 1000

# Each setting's environment variable; its default is the field's own, above.
ENVIRONMENT = {
    "DATABASE_URL": "database_url",
    "REDIS_URL": "redis_url",
    "PORT": "port",
    "DATA_DIR": "data_dir",
    "GAMES_ALLOW_FIXED_DECK": "allow_fixed_deck",
    "LOG_LEVEL": "log_level",
    "LOG_FORMAT": "log_format",
    "WEB_WORKERS": "web_workers",
    "WEB_CONNECTIONS": "web_connections",
    "RQ_WORKERS": "rq_workers",
    "RQ_QUEUE": "queue_name",
    "DB_POOL_SIZE": "db_pool_size",
    "SWEEP_AFTER_SECONDS": "sweep_after_seconds",
    "STREAM_HEARTBEAT_SECONDS": "stream_heartbeat_seconds",
    "STREAM_MAX_SECONDS": "stream_max_seconds",
    "MAX_STREAMS": "max_streams",
    "STREAM_SEAT_SHARE": "stream_seat_share",
    "FANOUT": "fanout",
    "NODES": "nodes",
    "PUSHPIN_URLS": "pushpin_urls",
    "AUDIT_KEY_FILE": "audit_key_file",
    "CORS_ORIGINS": "cors_origins",
    "TRUSTED_PROXIES": "trusted_proxies",
    "RATE_LIMITS": "rate_limits",
    "RATE_LIMIT_CREATE": "rate_limit_create",
    "RATE_LIMIT_CREATE_BOTS": "rate_limit_create_bots",
    "RATE_LIMIT_PLAYERS": "rate_limit_players",
    "RATE_LIMIT_QUEUE_JOINS": "rate_limit_queue_joins",
    "RATE_LIMIT_ACTIONS": "rate_limit_actions",
    "RATE_LIMIT_ACTIONS_PER_ADDRESS": "rate_limit_actions_per_address",
    "RATE_LIMIT_READS": "rate_limit_reads",
    "RATE_LIMIT_READS_PER_ADDRESS": "rate_limit_reads_per_address",
    "RATE_LIMIT_COSTLY_READS": "rate_limit_costly_reads",
    "RATE_LIMIT_COSTLY_READS_PER_ADDRESS": "rate_limit_costly_reads_per_address",
    "RATE_LIMIT_UNRESOLVED_PER_ADDRESS": "rate_limit_unresolved_per_address",
    "MAX_STREAMS_PER_CLIENT": "max_streams_per_client",
    "BOT_BUDGET_MS": "bot_budget_ms",
    "WORK_AHEAD": "work_ahead",
    "METRICS_TOKEN": "metrics_token",
    "BODY_TIMEOUT_SECONDS": "body_timeout_seconds",
    "WEBHOOKS_ALLOW_PRIVATE": "webhooks_allow_private",
    "WEBHOOK_DELIVERIES_PER_SECOND": "webhook_deliveries_per_second",
    "WEBHOOK_RETRY_SECONDS": "webhook_retry_seconds",
    "WEBHOOK_MAX_FAILURES": "webhook_max_failures",
    "WEBHOOK_THREADS": "webhook_threads",
    "MATCH_INTERVAL_SECONDS": "match_interval_seconds",
    "LOG_ORIGIN": "log_origin",
}


class SettingsError(ValueError):
    """A variable whose value cannot be used; the message names it."""


TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}
LOG_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}

# What each number may be: (lowest, highest), None for no bound.
BOUNDS: dict[str, tuple[float | None, float | None]] = {
    "port": (1, 65535),
    "nodes": (1, 4),  # docker/haproxy.cfg names up to four local nodes
    "web_workers": (1, None),
    "web_connections": (0, None),
    "rq_workers": (1, None),
    "db_pool_size": (1, None),
    "sweep_after_seconds": (0.1, None),
    "stream_heartbeat_seconds": (0.01, None),
    "stream_max_seconds": (0, None),
    "max_streams": (1, None),
    "stream_seat_share": (0, 0.99),
    "trusted_proxies": (0, None),
    "max_streams_per_client": (0, None),
    "bot_budget_ms": (1, 60_000),
    "work_ahead": (1, 1000),
    "body_timeout_seconds": (0.1, 3600),
    "webhook_deliveries_per_second": (0.01, 1000),
    "webhook_retry_seconds": (0.01, 3600),
    "webhook_max_failures": (1, 1000),
    "webhook_threads": (1, 256),
    "match_interval_seconds": (0.05, 60),
}
CHOICES = {
    "log_level": LOG_LEVELS,
    "log_format": {"text", "json"},
    "rate_limits": {"on", "off"},
    "fanout": {"", "pushpin", "embedded"},
}


def _parsed(variable: str, name: str, kind: type, raw: str) -> object:
    if kind is bool:
        if raw.lower() not in TRUE | FALSE:
            raise SettingsError(f"{variable}={raw!r}: say 1/true/yes/on or 0/false/no/off")
        return raw.lower() in TRUE
    if kind in (int, float):
        try:
            value = kind(raw)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise SettingsError(f"{variable}={raw!r}: not {what}") from None
        low, high = BOUNDS.get(name, (None, None))
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"from {low}" + (f" to {high}" if high is not None else " up")
            raise SettingsError(f"{variable}={raw!r}: must be {span}")
        return value
    choices = CHOICES.get(name)
    if choices and raw.upper() not in choices and raw.lower() not in choices:
        raise SettingsError(f"{variable}={raw!r}: one of {', '.join(sorted(choices))}")
    return raw


def load_settings(environ: Mapping[str, str] = os.environ) -> Settings:
    """Settings from the environment; an unset or empty variable keeps the default. A value
    that cannot be used raises SettingsError naming its variable."""
    kinds = get_type_hints(Settings)
    values: dict[str, Any] = {}
    for variable, name in ENVIRONMENT.items():
        raw = environ.get(variable, "").strip()
        if raw:
            values[name] = _parsed(variable, name, kinds[name], raw)
    if "log_level" in values:
        values["log_level"] = values["log_level"].upper()
    for lowered in ("rate_limits", "log_format"):
        if lowered in values:
            values[lowered] = values[lowered].lower()
    origin = values.get("log_origin", "")
    if any(c.isspace() or c == "+" for c in origin):  # C2SP: a signed note's key name
        raise SettingsError(f"LOG_ORIGIN={origin!r}: a log's name has no spaces and no '+'")
    if not values.get("web_connections"):
        streams = values.get("max_streams", Settings.max_streams)
        values["web_connections"] = streams + CONNECTIONS_BEYOND_STREAMS
    return Settings(**values)


def settings_or_exit(environ: Mapping[str, str] = os.environ) -> Settings:
    """For a program's start: a bad setting is one clear line and exit status 2 (usage)."""
    try:
        return load_settings(environ)
    except SettingsError as error:
        print(f"cardroom: bad setting: {error}", file=sys.stderr)
        raise SystemExit(2) from None
