"""Pushpin behind HAProxy, holding the event streams (docker/haproxy.cfg sends it the stream
routes and nothing else): its configuration, written under a directory of its own, and the
command that starts it as an ordinary user. HAProxy sets X-Forwarded-For; Pushpin passes it on
unchanged, and reaches the API nodes through HAProxy's inner door (ORIGIN), which balances over
the healthy ones.

Debian's package runs Pushpin as a system service beside a zurl service. Started by hand, it
needs its own rundir and logdir, zurl among its services (Pushpin reaches the API through
zurl), and the proxy's zurl sockets pointed into that rundir: with the package's defaults,
every proxied request fails with `error` in the proxy's log. Every ZeroMQ socket is a file in
the rundir, so several Pushpins run side by side on one machine, each with its own ports.

`python -m api.server.pushpin_conf DIR PORT ORIGIN CONTROL_PORT` writes the configuration and
runs Pushpin in the foreground, listening on every interface (docker/compose.yaml's `pushpin`),
with the key it signs its requests with derived from the settings' signing key (AUDIT_KEY_FILE).
It lives here, in the deployed package, because a deployment runs it; `make run`
(embedded/front_door.py) configures its own Pushpin with it too, so both shapes match.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from events import stream_channels
from events.audit.signing import load_or_create_signer
from events.operations.settings import Settings, settings_or_exit

PUSHPIN = "pushpin"
LIBDIR = "/usr/lib/pushpin"  # Debian's: internal.conf


@dataclass(frozen=True)
class PushpinSetup:
    directory: Path
    port: int  # where clients connect
    origin: str  # host:port of the API
    control_port: int  # the control API: publish, recover
    sig_key: str  # what it signs its requests to the API with (pushpin_key, below)
    max_connections: int = 50_000  # Pushpin's capacity: client connections, streams or not
    host: str = "127.0.0.1"  # what the client port and the control API listen on

    @property
    def control_url(self) -> str:
        return f"http://127.0.0.1:{self.control_port}"

    @property
    def config_path(self) -> Path:
        return self.directory / "pushpin.conf"


def pushpin_key(settings: Settings) -> str:
    """The key the API checks Pushpin's requests with (api/http/pushpin.py): derived from the
    signing key, which is created here if this Pushpin starts first."""
    return stream_channels.pushpin_key(load_or_create_signer(settings.audit_key_path))


def available() -> bool:
    return shutil.which(PUSHPIN) is not None and os.path.exists(f"{LIBDIR}/internal.conf")


def write_config(setup: PushpinSetup) -> Path:
    run, logs = setup.directory / "run", setup.directory / "log"
    run.mkdir(parents=True, exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    (setup.directory / "routes").write_text(f"* {setup.origin}\n")
    ipc = f"ipc://{run}/"
    setup.config_path.write_text(f"""\
[global]
include={LIBDIR}/internal.conf
rundir={run}
ipc_prefix=pushpin-
port_offset=0
stats_connection_ttl=120

[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port={setup.host}:{setup.port}
logdir={logs}
log_level=1
client_buffer_size=8192
client_maxconn={setup.max_connections}
condure_bin=condure
zurl_bin=zurl

[proxy]
routesfile=routes
debug=false
auto_cross_origin=false
accept_x_forwarded_protocol=false
set_x_forwarded_protocol=proto-only
x_forwarded_for=
x_forwarded_for_trusted=
orig_headers_need_mark=
accept_pushpin_route=false
log_from=false
log_user_agent=false
sig_iss=pushpin
sig_key={setup.sig_key}
upstream_key=
updates_check=off
zurl_out_specs={ipc}pushpin-zurl-in
zurl_out_stream_specs={ipc}pushpin-zurl-in-stream
zurl_in_specs={ipc}pushpin-zurl-out

[handler]
push_in_spec={ipc}push-in
push_in_sub_specs={ipc}push-in-sub
push_in_sub_connect=false
push_in_http_addr={setup.host}
push_in_http_port={setup.control_port}
push_in_http_max_headers_size=10000
push_in_http_max_body_size=10000000
stats_spec={ipc}stats
command_spec={ipc}command
message_rate=100000
message_hwm=100000
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
""")
    return setup.config_path


def command(setup: PushpinSetup) -> list[str]:
    return [PUSHPIN, f"--config={write_config(setup)}", "--merge-output"]


def main(argv: list[str]) -> None:
    directory, port, origin, control = argv[1:5]
    key = pushpin_key(settings_or_exit())
    setup = PushpinSetup(Path(directory), int(port), origin, int(control), key, host="0.0.0.0")
    os.execvp(PUSHPIN, command(setup))


if __name__ == "__main__":
    main(sys.argv)
