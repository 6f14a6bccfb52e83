"""`python -m embedded.run` (behind `make run`): services, migrations, API and worker.

It supervises what it starts: an API (gunicorn master) or worker process that dies is started
again, after 0.5 s doubling to 10 s while it keeps dying soon after each start (the delay resets
once it has stayed up 30 s); each restart is logged with the exit status and the restart count.
It gives up, exit status 1, only when the API dies soon after its start 5 times in a row (e.g.
its port is taken). Ctrl-C (or SIGTERM) stops the API and the workers, then the embedded servers
this launcher owns; a second Ctrl-C kills the app processes at once.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

from embedded import pushpin
from embedded.common import log
from embedded.procs import StopSignal, Supervised, terminate
from embedded.services import Services, ensure_services
from events.operations.metrics import fresh_directory
from events.operations.settings import CONNECTIONS_BEYOND_STREAMS, Settings, settings_or_exit

HOST = "127.0.0.1"
START_TIMEOUT = 60.0
API = "API (gunicorn)"
API_GIVE_UP = 5  # quick deaths in a row: the API cannot start (e.g. its port is taken)


def gunicorn_command(port: int) -> list[str]:
    # Workers, worker class and connections come from the settings, in api/server/gunicorn_conf.py.
    return [
        sys.executable, "-m", "gunicorn", "api.server.wsgi:app",
        "-c", "python:api.server.gunicorn_conf",
        "-b", f"{HOST}:{port}",
    ]  # fmt: skip


def pushpin_setup(settings: Settings) -> pushpin.PushpinSetup | None:
    """Pushpin in front, on PORT, when FANOUT says so or (unset) when it is installed; the API
    then listens on PORT + 1 and Pushpin's control API on PORT + 2."""
    wanted = settings.fanout == "pushpin" or (not settings.fanout and pushpin.available())
    if not wanted:
        return None
    directory = Path(settings.data_dir).resolve() / "pushpin"
    origin = f"{HOST}:{settings.port + 1}"
    # Pushpin's own limit is the capacity: it holds MAX_STREAMS, and connections beyond them
    connections = settings.max_streams + CONNECTIONS_BEYOND_STREAMS
    key = pushpin.pushpin_key(settings)
    return pushpin.PushpinSetup(
        directory, settings.port, origin, settings.port + 2, key, max_connections=connections
    )


def worker_commands(settings: Settings) -> list[list[str]]:
    """One full worker (jobs, outbox relay, sweeper), plus RQ_WORKERS - 1 that only run jobs."""
    full = [sys.executable, "-m", "workers"]
    return [full] + [[*full, "--jobs-only"]] * max(0, settings.rq_workers - 1)


def raise_open_files_limit() -> int:
    """Every open event stream is a socket: let the children use as many files as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def _port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((HOST, port)) == 0


def _migrate(env: dict[str, str]) -> None:
    result = subprocess.run([sys.executable, "-m", "events.postgres.migrate"], env=env)
    if result.returncode != 0:
        raise SystemExit(f"migrations failed (exit {result.returncode})")


def serve(settings: Settings, services: Services, stop: StopSignal) -> int:
    env = dict(os.environ, DATABASE_URL=services.database_url, REDIS_URL=services.redis_url)
    # One metrics directory for the API and the workers (GET /metrics sums it), emptied first.
    metrics = env.get("PROMETHEUS_MULTIPROC_DIR") or os.path.join(settings.data_dir, "metrics")
    env["PROMETHEUS_MULTIPROC_DIR"] = fresh_directory(metrics)
    env.setdefault("PYTHONUNBUFFERED", "1")
    # Development: webhooks may go to a receiver on this machine or its network (unless the
    # shell says otherwise); a deployment never sets it (events/webhooks/addresses.py).
    env.setdefault("WEBHOOKS_ALLOW_PRIVATE", "1")
    raise_open_files_limit()
    _migrate(env)
    if stop.event.is_set():
        return 0
    if _port_in_use(settings.port):
        log(f"port {settings.port} is already in use on {HOST}: set PORT to another one")
        return 1

    now = time.monotonic()
    front = pushpin_setup(settings)
    api_port = settings.port
    if front is not None:  # Pushpin holds the streams: the workers publish, the API trusts it
        api_port = settings.port + 1
        others = settings.pushpin_urls  # other nodes' Pushpins, fed by this node's publisher
        env.update(PUSHPIN_URLS=",".join(filter(None, [front.control_url, others])))
        env.update(TRUSTED_PROXIES="1")
        log(f"Pushpin in front (FANOUT={settings.fanout or 'auto'}), API on {HOST}:{api_port}")
    children = [Supervised(API, gunicorn_command(api_port), env)]
    if front is not None:
        children.append(Supervised("Pushpin", pushpin.command(front), env))
    for i, cmd in enumerate(worker_commands(settings)):
        children.append(Supervised(f"worker {i + 1}", cmd, env))
    for child in children:
        child.start(now)
    url = f"http://{HOST}:{settings.port}"
    announced = False
    api_down = False  # the API died and has not listened again yet
    deadline = now + START_TIMEOUT
    rc = 0
    try:
        while not stop.event.is_set():
            now = time.monotonic()
            if not _supervise(children, now):
                rc = 1
                break
            if not announced:
                # With Pushpin in front, its client port listens before its handler does, and a
                # stream held meanwhile would be cut: ready once the handler's port listens too.
                handler_up = front is None or _port_in_use(front.control_port)
                if _port_in_use(settings.port) and handler_up:
                    announced = True
                    print(f"\nCardroom is running at {url}", flush=True)
                    print(f"Play: {url}/play\nAPI docs: {url}/docs\n", flush=True)
                    print("Press Ctrl-C to stop.", flush=True)
                elif now > deadline:
                    log(f"the API did not listen on {url} within {START_TIMEOUT:.0f} s")
                    rc = 1
                    break
            elif children[0].restart_at is not None:
                api_down = True
            elif api_down and _port_in_use(settings.port):
                api_down = False
                log(f"{API} is serving again at {url}")
            stop.event.wait(0.2)
    finally:
        if stop.event.is_set():
            log("stopping...")
        procs = [c.proc for c in children if c.proc is not None]
        # A second Ctrl-C while we wait cuts the grace period short.
        _terminate_interruptibly(procs, stop)
    return rc


def _supervise(children: list[Supervised], now: float) -> bool:
    """Starts again each child that died once its delay has passed; False to give up."""
    for child in children:
        death = child.died(now)
        if death is not None:
            status, delay = death
            pid = child.proc.pid if child.proc is not None else "?"
            if child.name == API and child.quick_deaths >= API_GIVE_UP:
                log(
                    f"{child.name} (pid {pid}) exited with status {status}, the {API_GIVE_UP}th "
                    "time in a row soon after starting; giving up (is its port taken?)"
                )
                return False
            log(
                f"{child.name} (pid {pid}) exited with status {status}; restarting it in "
                f"{delay:.1f} s (restart {child.restarts + 1})"
            )
        if child.due(now):
            child.restart(now)
            pid = child.proc.pid if child.proc is not None else "?"
            log(f"{child.name} restarted (pid {pid}, restart {child.restarts})")
    return True


def _terminate_interruptibly(procs: list[subprocess.Popen[bytes]], stop: StopSignal) -> None:
    count = stop.count
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + 20
    while any(p.poll() is None for p in procs):
        if stop.count > count or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    terminate(procs, timeout=0)  # SIGKILL whatever is left, and reap


def main() -> int:
    stop = StopSignal()
    stop.install()
    settings = settings_or_exit()
    services = ensure_services(settings.data_dir)
    try:
        if stop.event.is_set():
            return 0
        return serve(settings, services, stop)
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
