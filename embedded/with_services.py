"""`python -m embedded.with_services [--temp | --data-dir DIR] -- CMD...` (behind `make test`).

Runs CMD with DATABASE_URL and REDIS_URL set: the environment's own if set, otherwise embedded
servers in DIR (default $DATA_DIR or .data) or, with --temp, in a throwaway directory removed
afterwards. Stops what it started and exits with CMD's exit status.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from embedded.common import log
from embedded.procs import exit_code
from embedded.services import ensure_services


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    if "--" not in argv:
        raise SystemExit("usage: python -m embedded.with_services [--temp | --data-dir DIR] -- CMD")
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m embedded.with_services")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--temp", action="store_true", help="use a throwaway data directory")
    where.add_argument("--data-dir", default=os.environ.get("DATA_DIR") or ".data")
    args = parser.parse_args(argv[:split])
    cmd = argv[split + 1 :]
    if not cmd:
        parser.error("no command after --")
    return args, cmd


def run(cmd: list[str], env: dict[str, str]) -> int:
    # CMD shares our process group, so a Ctrl-C at the terminal reaches it directly (pytest
    # handles it); we ignore SIGINT ourselves and forward SIGTERM.
    proc = subprocess.Popen(cmd, env=env)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, _frame: proc.send_signal(signum))
    return exit_code(proc.wait())


def main(argv: list[str] | None = None) -> int:
    args, cmd = parse_args(sys.argv[1:] if argv is None else argv)
    data_dir = tempfile.mkdtemp(prefix="cardroom-test-") if args.temp else args.data_dir
    try:
        started = time.monotonic()
        services = ensure_services(data_dir)
        try:
            if services.embedded:
                names = " and ".join(services.embedded)
                log(f"embedded {names} ready in {time.monotonic() - started:.1f} s")
            env = dict(os.environ, DATABASE_URL=services.database_url, DATA_DIR=data_dir)
            env["REDIS_URL"] = services.redis_url
            return run(cmd, env)
        finally:
            services.stop()
    finally:
        if args.temp:
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
