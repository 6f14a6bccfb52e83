"""Configuration, from environment variables only, each with a safe default."""

from __future__ import annotations

import os
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
    web_workers: int = 2
    web_threads: int = 128  # gthread: an open event stream holds one thread (docs/streams.md)
    rq_workers: int = 1
    queue_name: str = "cardroom"
    db_pool_size: int = 10
    sweep_after_seconds: float = 5.0
    stream_heartbeat_seconds: float = 15.0  # a comment line at least this often
    stream_max_seconds: float = 0.0  # 0: a stream lasts until the game ends
    max_streams: int = 1000  # per API process; load_settings keeps threads free for the rest
    audit_key_file: str = ""  # Ed25519 key that signs chain heads; "": DATA_DIR/audit-key.pem
    cors_origins: str = "*"  # comma-separated origins a browser may call from; "*": any

    @property
    def audit_key_path(self) -> str:
        return self.audit_key_file or os.path.join(self.data_dir, "audit-key.pem")


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


# Threads of an API process that streams may never take, so actions are always served.
RESERVED_THREADS = 8

# Each setting's environment variable; its default is the field's own, above.
ENVIRONMENT = {
    "DATABASE_URL": "database_url",
    "REDIS_URL": "redis_url",
    "PORT": "port",
    "DATA_DIR": "data_dir",
    "GAMES_ALLOW_FIXED_DECK": "allow_fixed_deck",
    "LOG_LEVEL": "log_level",
    "WEB_WORKERS": "web_workers",
    "WEB_THREADS": "web_threads",
    "RQ_WORKERS": "rq_workers",
    "RQ_QUEUE": "queue_name",
    "DB_POOL_SIZE": "db_pool_size",
    "SWEEP_AFTER_SECONDS": "sweep_after_seconds",
    "STREAM_HEARTBEAT_SECONDS": "stream_heartbeat_seconds",
    "STREAM_MAX_SECONDS": "stream_max_seconds",
    "MAX_STREAMS": "max_streams",
    "AUDIT_KEY_FILE": "audit_key_file",
    "CORS_ORIGINS": "cors_origins",
}


def _parsed(kind: type, raw: str) -> object:
    if kind is bool:
        return raw.lower() in {"1", "true", "yes", "on"}
    return kind(raw)


def load_settings(environ: Mapping[str, str] = os.environ) -> Settings:
    """Settings from the environment; an unset or empty variable keeps the default."""
    kinds = get_type_hints(Settings)
    values: dict[str, Any] = {}
    for variable, name in ENVIRONMENT.items():
        raw = environ.get(variable, "").strip()
        if raw:
            values[name] = _parsed(kinds[name], raw)
    if "log_level" in values:
        values["log_level"] = values["log_level"].upper()
    threads = values.get("web_threads", Settings.web_threads)
    values.setdefault("max_streams", max(1, threads - RESERVED_THREADS))
    return Settings(**values)
