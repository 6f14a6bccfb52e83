"""`make run NODES=2` (or `FANOUT=pushpin`): HAProxy on PORT in front of the API nodes, with
Pushpin behind it holding the event streams, configured by docker/haproxy.cfg as compose is.

Ports, from PORT up: HAProxy's front door (PORT), its door for Pushpin's requests to the API
(+1), Pushpin's client port (+2) and control API (+3), then one per API node (+4, +5, ...).
"""

from __future__ import annotations

import resource
import shutil
from dataclasses import dataclass
from pathlib import Path

from api.server import pushpin_conf as pushpin
from events.operations.settings import CONNECTIONS_BEYOND_STREAMS, Settings

HOST = "127.0.0.1"
HAPROXY = "haproxy"
FILES_KEPT = 500  # descriptors for listeners, checks, logs and pollers
CONFIG = Path(__file__).resolve().parents[1] / "docker" / "haproxy.cfg"


@dataclass(frozen=True)
class FrontDoor:
    port: int  # HAProxy's, where clients connect
    internal_port: int  # HAProxy's, where Pushpin reaches the API nodes
    pushpin: pushpin.PushpinSetup
    node_ports: tuple[int, ...]
    max_connections: int

    @property
    def node_urls(self) -> list[str]:
        return [f"http://{HOST}:{port}" for port in self.node_ports]

    def haproxy_environment(self) -> dict[str, str]:
        """The variables docker/haproxy.cfg reads, for this machine's ports."""
        env = {
            "FRONT_BIND": f"{HOST}:{self.port}",
            "INTERNAL_BIND": f"{HOST}:{self.internal_port}",
            "PUSHPIN": f"{HOST}:{self.pushpin.port}",
            "PUSHPIN_CHECK": str(self.pushpin.control_port),
            # The front door holds every stream and every other connection at once.
            "MAXCONN": str(self.max_connections),
        }
        for i, port in enumerate(self.node_ports, start=1):
            env[f"NODE_{i}"] = f"{HOST}:{port}"
        return env


def wanted(settings: Settings) -> bool:
    return settings.nodes > 1 or settings.fanout == "pushpin"


def missing_package() -> str | None:
    """One line naming the Debian package to install, or None when both are there."""
    if shutil.which(HAPROXY) is None:
        return (
            "HAProxy is not installed: install Debian's haproxy package (apt-get install haproxy)"
        )
    if not pushpin.available():
        return (
            "Pushpin is not installed: install Debian's pushpin package (apt-get install pushpin)"
        )
    return None


def refusal(settings: Settings) -> str | None:
    """Why this shape cannot start as asked, in one line; None when it can."""
    if settings.nodes > 1 and settings.fanout == "embedded":
        return (
            f"NODES={settings.nodes} holds the streams on Pushpin behind HAProxy; "
            "FANOUT=embedded is for one node (unset FANOUT)"
        )
    return missing_package()


def front_door(settings: Settings) -> FrontDoor:
    base = settings.port
    directory = Path(settings.data_dir).resolve() / "pushpin"
    # Pushpin's origin is HAProxy's inner door, which balances its requests over healthy nodes.
    connections = settings.max_streams + CONNECTIONS_BEYOND_STREAMS
    setup = pushpin.PushpinSetup(
        directory,
        base + 2,
        f"{HOST}:{base + 1}",
        base + 3,
        pushpin.pushpin_key(settings),
        max_connections=connections,
    )
    nodes = tuple(base + 4 + i for i in range(settings.nodes))
    # Beyond Pushpin's capacity: connections that are not streams, and heads still arriving.
    wanted_connections = connections + CONNECTIONS_BEYOND_STREAMS
    return FrontDoor(base, base + 1, setup, nodes, min(wanted_connections, connection_room()))


def connection_room() -> int:
    """The client connections HAProxy can hold within this process's open-files limit: each
    takes two descriptors (the client's and the one to its node or Pushpin), and HAProxy
    refuses to start when its maxconn would not fit."""
    return max(100, (files_limit() - FILES_KEPT) // 2)


def files_limit() -> int:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return hard if hard != resource.RLIM_INFINITY else 1 << 20


def haproxy_command() -> list[str]:
    # -db: in the foreground, printing to stderr, stopped by the launcher's SIGTERM.
    return [HAPROXY, "-db", "-f", str(CONFIG)]


def node_name(index: int) -> str:
    return f"API node {index + 1} (gunicorn)"
