"""Turn-timer firing lag: --tables tables whose one human never acts, all created together with
turn_seconds=5, on a service started as make run does (one worker process). Lag = the
TurnTimedOut's recorded_at minus the seat's deadline as the API showed it.

    .venv/bin/python -m bench.timers --tables 100

Goal: p95 lag < 1 s with 100 tables timing out together.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import requests

from bench.service import started_service
from bench.stats import percentile

GOAL_P95_SECONDS = 1.0
TURN_SECONDS = 5
TABLE = {
    "type": "trick_and_snipers",
    "seats": [{"kind": "human", "name": "silent"}, *[{"kind": "bot", "level": "basic"}] * 2],
    "options": {"turn_seconds": TURN_SECONDS},
}


def moment(spelled: str) -> datetime:
    return datetime.fromisoformat(spelled.replace("Z", "+00:00"))


def create(url: str) -> tuple[str, datetime]:
    """A table and its silent seat's deadline."""
    with requests.Session() as session:
        game = session.post(f"{url}/games", json=TABLE, timeout=30).json()
        token = game["tokens"][0]["token"]
        mine = session.get(
            f"{url}/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}, timeout=30
        ).json()
    return game["id"], moment(mine["seats"][0]["deadline"])


def first_timeout(url: str, game_id: str) -> datetime | None:
    page = requests.get(f"{url}/games/{game_id}/events?limit=1000", timeout=30).json()
    found = [e for e in page["events"] if e["type"] == "TurnTimedOut"]
    return moment(found[0]["recorded_at"]) if found else None


def run(url: str, tables: int) -> list[float]:
    with ThreadPoolExecutor(max_workers=16) as pool:
        made = list(pool.map(lambda _: create(url), range(tables)))
    spread = max(d for _, d in made) - min(d for _, d in made)
    print(f"{tables} tables created; their deadlines lie within {spread.total_seconds():.2f} s",
          file=sys.stderr)  # fmt: skip
    last = max(d for _, d in made)
    while (wait := (last - datetime.now(last.tzinfo)).total_seconds() + 3) > 0:
        print(f"\rwaiting for the deadlines: {wait:.0f} s ", end="", file=sys.stderr, flush=True)
        time.sleep(min(1.0, wait))
    print(file=sys.stderr)
    lags = []
    for game_id, deadline in made:
        fired = first_timeout(url, game_id)
        if fired is None:
            raise SystemExit(f"game {game_id} never timed out")
        lags.append((fired - deadline).total_seconds())
    return lags


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=100)
    args = p.parse_args(argv)
    with started_service() as service:
        lags = run(service.url, args.tables)
    p50, p95 = percentile(lags, 50), percentile(lags, 95)
    print(f"timeouts_fired        {len(lags)}")
    print(f"firing_lag_p50_s      {p50:.3f}")
    print(f"firing_lag_p95_s      {p95:.3f}")
    print(f"firing_lag_max_s      {max(lags):.3f}")
    print(f"firing_lag_min_s      {min(lags):.3f}")
    ok = p95 < GOAL_P95_SECONDS
    print(f"goal: p95 lag < {GOAL_P95_SECONDS:.0f} s with {args.tables} tables: "
          f"{'PASS' if ok else 'FAIL'}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
