"""Run only by test_no_leftovers.py, as a pytest run of its own: it starts what the suite starts
(the NODES=2 launcher, and a gunicorn behind a front door of the test helpers), writes every pid
below it to $PROBE_PIDS, and waits to be killed."""

from __future__ import annotations

import os
import time
from pathlib import Path

import psutil

from tests.api.real_server import pushpin_serving
from tests.deploy.launcher import launched


def test_hold_servers_until_killed(private_database_url, redis_url, settings, tmp_path):
    with (
        launched(private_database_url, redis_url, tmp_path / "data"),
        pushpin_serving(settings, tmp_path / "pushpin"),
    ):
        below = psutil.Process().children(recursive=True)
        lines = [f"{p.pid} {' '.join(p.cmdline())[:200]}" for p in below]
        Path(os.environ["PROBE_PIDS"]).write_text("\n".join(lines) + "\n")
        time.sleep(600)
