"""Configuration, from environment variables only, each with a safe default."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


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

    @property
    def audit_key_path(self) -> str:
        return self.audit_key_file or os.path.join(self.data_dir, "audit-key.pem")


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    return float(raw) if raw else default


# Threads of an API process that streams may never take, so actions are always served.
RESERVED_THREADS = 8


def load_settings() -> Settings:
    threads = _int("WEB_THREADS", Settings.web_threads)
    return Settings(
        database_url=os.environ.get("DATABASE_URL", ""),
        redis_url=os.environ.get("REDIS_URL", ""),
        port=_int("PORT", 8000),
        data_dir=os.environ.get("DATA_DIR", ".data"),
        allow_fixed_deck=_flag("GAMES_ALLOW_FIXED_DECK"),
        log_level=os.environ.get("LOG_LEVEL", "INFO").upper(),
        web_workers=_int("WEB_WORKERS", 2),
        web_threads=threads,
        rq_workers=_int("RQ_WORKERS", 1),
        queue_name=os.environ.get("RQ_QUEUE", "cardroom"),
        db_pool_size=_int("DB_POOL_SIZE", 10),
        sweep_after_seconds=float(os.environ.get("SWEEP_AFTER_SECONDS", "5") or 5),
        stream_heartbeat_seconds=_float("STREAM_HEARTBEAT_SECONDS", 15.0),
        stream_max_seconds=_float("STREAM_MAX_SECONDS", 0.0),
        max_streams=_int("MAX_STREAMS", max(1, threads - RESERVED_THREADS)),
        audit_key_file=os.environ.get("AUDIT_KEY_FILE", ""),
    )
