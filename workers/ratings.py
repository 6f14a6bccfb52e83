"""`python -m workers.ratings --rebuild`: recomputes every rating from the events, printing its
progress. The workers keep the ratings up to date by themselves (events/rating_updates.py);
rebuild after a change to how games are rated, or to check the ratings against the log."""

from __future__ import annotations

import argparse
import sys
import time

from events.bootstrap import bootstrap
from events.operations.settings import settings_or_exit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.ratings", description=__doc__)
    parser.add_argument("--rebuild", action="store_true", help="recompute every rating")
    args = parser.parse_args(argv)
    if not args.rebuild:
        parser.print_help()
        return 2
    cardroom = bootstrap(settings_or_exit(), pool_size=1)
    started = time.monotonic()
    try:
        taken = cardroom.ratings.rebuild(_progress)
    finally:
        cardroom.close()
    print(f"ratings rebuilt from {taken} rated games in {time.monotonic() - started:.1f} s")
    return 0


def _progress(done: int, total: int) -> None:
    print(f"read {done}/{total} rated games", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
