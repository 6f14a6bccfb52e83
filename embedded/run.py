"""`python -m embedded.run` (behind `make run`): services, migrations, API and worker.

One box by default: the API on PORT holds its own event streams. With NODES=2 (up to 4) or
FANOUT=pushpin: HAProxy on PORT in front of that many API nodes, with Pushpin behind it for the
stream routes only (embedded/front_door.py, docker/haproxy.cfg, docs/scaling.md).

It supervises what it starts: an API (gunicorn master), HAProxy, Pushpin or worker process that
dies is started again, after 0.5 s doubling to 10 s while it keeps dying soon after each start
(the delay resets once it has stayed up 30 s); each restart is logged with the exit status and
the restart count.
It gives up, exit status 1, only when an API node or HAProxy dies soon after its start 5 times in
a row (e.g. its port is taken). Ctrl-C (or SIGTERM) stops them all, then the embedded servers
this launcher owns; a second Ctrl-C kills the app processes at once.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

from api.server import pushpin_conf as pushpin
from embedded import front_door
from embedded.common import log
from embedded.procs import StopSignal, Supervised, terminate
from embedded.services import Services, ensure_services
from events.operations.metrics import fresh_directory
from events.operations.settings import CONNECTIONS_BEYOND_STREAMS, Settings, settings_or_exit

HOST = "127.0.0.1"
START_TIMEOUT = 60.0
API = "API (gunicorn)"
GIVE_UP = 5  # quick deaths in a row: an API or HAProxy cannot start (e.g. its port is taken)


def gunicorn_command(port: int) -> list[str]:
    # Workers, worker class and connections come from the settings, in api/server/gunicorn_conf.py.
    return [
        sys.executable, "-m", "gunicorn", "api.server.wsgi:app",
        "-c", "python:api.server.gunicorn_conf",
        "-b", f"{HOST}:{port}",
    ]  # fmt: skip


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

    shape = nodes(settings, env) if front_door.wanted(settings) else one_box(settings, env)
    taken = [port for port in shape.ports if _port_in_use(port)]
    if taken:
        log(f"port {taken[0]} is already in use on {HOST}: set PORT to another one")
        return 1
    return supervise(shape, settings, stop)


@dataclass
class Shape:
    """What `make run` starts: the children, the ports they take, and when it is ready."""

    children: list[Supervised]
    ports: list[int]  # every port the children listen on; PORT first
    ready_ports: list[int]  # listening on all of them: ready
    # Children that give up the run when they cannot start, with the port that shows they serve.
    essential: dict[str, int]


def one_box(settings: Settings, env: dict[str, str]) -> Shape:
    """The API on PORT, holding its own streams, and the workers."""
    children = [Supervised(API, gunicorn_command(settings.port), env)]
    children += _workers(settings, env)
    return Shape(children, [settings.port], [settings.port], {API: settings.port})


def nodes(settings: Settings, env: dict[str, str]) -> Shape:
    """HAProxy on PORT, Pushpin behind it for the streams, NODES API nodes, the workers."""
    door = front_door.front_door(settings)
    env = dict(
        env, PUSHPIN_URLS=",".join(filter(None, [door.pushpin.control_url, settings.pushpin_urls]))
    )
    env.update(TRUSTED_PROXIES="1")  # HAProxy sets X-Forwarded-For; Pushpin passes it on
    # The nodes share this machine: its WEB_WORKERS processes are shared out among them.
    env.update(WEB_WORKERS=str(max(1, settings.web_workers // settings.nodes)))
    names = [front_door.node_name(i) for i in range(len(door.node_ports))]
    children = [
        Supervised(n, gunicorn_command(p), env) for n, p in zip(names, door.node_ports, strict=True)
    ]
    children.append(Supervised("Pushpin", pushpin.command(door.pushpin), env))
    children.append(
        Supervised("HAProxy", front_door.haproxy_command(), {**env, **door.haproxy_environment()})
    )
    children += _workers(settings, env)
    if door.max_connections < settings.max_streams + CONNECTIONS_BEYOND_STREAMS:
        log(
            f"HAProxy holds at most {door.max_connections} connections within this machine's "
            f"open-files limit ({front_door.files_limit()}): fewer than MAX_STREAMS "
            f"({settings.max_streams}) streams fit"
        )
    log(
        f"HAProxy on {HOST}:{door.port} in front of {len(names)} API node(s) on ports "
        f"{', '.join(map(str, door.node_ports))}; Pushpin behind it holds the streams"
    )
    pushpin_ports = [door.pushpin.port, door.pushpin.control_port]
    ports = [door.port, door.internal_port, *pushpin_ports, *door.node_ports]
    # Ready once every node and Pushpin's handler (its client port listens before) listen.
    essential = dict(zip(names, door.node_ports, strict=True)) | {"HAProxy": door.port}
    return Shape(children, ports, ports, essential)


def _workers(settings: Settings, env: dict[str, str]) -> list[Supervised]:
    return [
        Supervised(f"worker {i + 1}", cmd, env) for i, cmd in enumerate(worker_commands(settings))
    ]


def supervise(shape: Shape, settings: Settings, stop: StopSignal) -> int:
    now = time.monotonic()
    children = shape.children
    for child in children:
        child.start(now)
    url = f"http://{HOST}:{settings.port}"
    announced = False
    down: set[str] = set()  # essential children that died and do not listen again yet
    deadline = now + START_TIMEOUT
    rc = 0
    try:
        while not stop.event.is_set():
            now = time.monotonic()
            if not _supervise(children, shape.essential, now):
                rc = 1
                break
            if not announced:
                if all(_port_in_use(port) for port in shape.ready_ports):
                    announced = True
                    print(f"\nCardroom is running at {url}", flush=True)
                    print(f"Play: {url}/play\nAPI docs: {url}/docs\n", flush=True)
                    print("Press Ctrl-C to stop.", flush=True)
                elif now > deadline:
                    log(f"Cardroom did not listen on {url} within {START_TIMEOUT:.0f} s")
                    rc = 1
                    break
            else:
                _note_recoveries(children, shape.essential, down)
            stop.event.wait(0.2)
    finally:
        if stop.event.is_set():
            log("stopping...")
        procs = [c.proc for c in children if c.proc is not None]
        # A second Ctrl-C while we wait cuts the grace period short.
        _terminate_interruptibly(procs, stop)
    return rc


def _note_recoveries(children: list[Supervised], essential: dict[str, int], down: set[str]) -> None:
    """Logs when an essential child that died is started again and listens."""
    for child in children:
        if child.name not in essential:
            continue
        if child.restart_at is not None:
            down.add(child.name)
        elif child.name in down and _port_in_use(essential[child.name]):
            down.discard(child.name)
            log(f"{child.name} is serving again at {HOST}:{essential[child.name]}")


def _supervise(children: list[Supervised], essential: dict[str, int], now: float) -> bool:
    """Starts again each child that died once its delay has passed; False to give up."""
    for child in children:
        death = child.died(now)
        if death is not None:
            status, delay = death
            pid = child.proc.pid if child.proc is not None else "?"
            if child.name in essential and child.quick_deaths >= GIVE_UP:
                log(
                    f"{child.name} (pid {pid}) exited with status {status}, the {GIVE_UP}th "
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
    why = front_door.refusal(settings) if front_door.wanted(settings) else None
    if why is not None:  # before anything starts: one line, naming what to install or unset
        log(why)
        return 1
    services = ensure_services(settings.data_dir)
    try:
        if stop.event.is_set():
            return 0
        return serve(settings, services, stop)
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
