"""The embedded Postgres (pgserver): start or reuse one in a data directory, create the app's
database, stop it."""

from __future__ import annotations

import atexit
import os
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path

from embedded.common import log, missing

APP_DATABASE = "cardroom"


def _import_pgserver() -> None:
    # platformdirs warns on import when XDG_RUNTIME_DIR is unset (containers, CI); harmless.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import pgserver  # noqa: F401
        except ImportError:
            raise missing("Postgres", "pgserver", "DATABASE_URL") from None


def postgres_pid(pgdata: Path) -> int | None:
    _import_pgserver()
    from pgserver.utils import PostmasterInfo

    if not (pgdata / "postmaster.pid").exists():
        return None
    info = PostmasterInfo.read_from_pgdata(pgdata)
    return info.pid if info is not None and info.is_running() else None


def ensure_postgres(pgdata: Path, stoppers: list[Callable[[], None]], owner: bool) -> str:
    _import_pgserver()
    from pgserver.postgres_server import get_server

    running = postgres_pid(pgdata)
    server = get_server(pgdata, cleanup_mode=None)  # waits until ready
    if running is None:
        log(f"started embedded Postgres in {pgdata}")
    else:
        log(f"reusing embedded Postgres already running in {pgdata} (pid {running})")
    if running is None or owner:
        stoppers.append(lambda: stop_postgres(pgdata))
    _create_database(server.get_uri(), APP_DATABASE)
    return server.get_uri(APP_DATABASE)


def _create_database(admin_url: str, name: str) -> None:
    import psycopg
    from psycopg import errors, sql

    with psycopg.connect(admin_url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            return
        try:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except errors.DuplicateDatabase:
            pass


def stop_postgres(pgdata: Path) -> None:
    _import_pgserver()
    from pgserver import postgres_server
    from pgserver._commands import create_command_function

    # pgserver makes its pg_ctl at import time by setattr, which no type checker sees; this is
    # the same function, made the same way.
    pg_ctl = create_command_function("pg_ctl")

    user = "pgserver" if os.geteuid() == 0 else None  # pgserver runs postgres as this user
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user, timeout=60)
    except subprocess.CalledProcessError:
        pass  # already stopped
    # pgserver caches one handle per pgdata; drop it so a later get_server() starts it again.
    server = postgres_server.PostgresServer._instances.pop(pgdata, None)
    if server is not None:
        atexit.unregister(server._cleanup)
        server.global_process_id_list.get_and_remove(os.getpid())
    log("stopped embedded Postgres")
