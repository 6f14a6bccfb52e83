"""Do the ratings order the bot levels? Rated tables of one `random`, one `basic` and one
`strong` bot (in shuffled seats) play each game type on a started service, through its real
workers; every level is a rated player, so at the end each level's rating of each type is read
from its profile (`GET /players/{id}`), and the bench says whether strong > basic > random by
displayed rating in every game.

    .venv/bin/python -m bench.rating_levels --start [--games 30 --concurrent 6 --bot-ms 100]

`--bot-ms` is the strong bot's thinking time per move (BOT_BUDGET_MS of the started service):
lower than the default 300 ms, so that hundreds of games fit in minutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import requests

from domain.rated_tables import BOT_RATERS

GAME_TYPES = ("trick_and_snipers", "ouroboros_trick", "saint_poker", "st_patrick")
ORDER = ("strong", "basic", "random")  # best first


def rated_table(session: requests.Session, url: str, game_type: str, rng: random.Random) -> str:
    levels = list(ORDER)
    rng.shuffle(levels)
    body = {"type": game_type, "seats": [{"kind": "bot", "level": level} for level in levels],
            "options": {"rated": True}}  # fmt: skip
    response = session.post(f"{url}/games", json=body, timeout=30)
    if response.status_code != 201:
        raise SystemExit(f"POST /games answered {response.status_code}: {response.text}")
    return response.json()["id"]


def finished(session: requests.Session, url: str, game_id: str) -> bool:
    return session.get(f"{url}/games/{game_id}", timeout=30).json()["status"] == "finished"


def play(url: str, kinds: list[str], games: int, concurrent: int, rng: random.Random) -> None:
    """`games` rated tables of each type, `concurrent` of them playing at a time."""
    session = requests.Session()
    queue = [game_type for game_type in kinds for _ in range(games)]
    rng.shuffle(queue)
    playing: list[str] = []
    done, total, started = 0, len(queue), time.monotonic()
    while queue or playing:
        while queue and len(playing) < concurrent:
            playing.append(rated_table(session, url, queue.pop(), rng))
        time.sleep(0.5)
        still = [game_id for game_id in playing if not finished(session, url, game_id)]
        if len(still) < len(playing):
            done += len(playing) - len(still)
            print(f"{done}/{total} rated games played ({time.monotonic() - started:.0f} s)",
                  file=sys.stderr, flush=True)  # fmt: skip
        playing = still


def ratings_of_levels(url: str, kinds: list[str], games: int) -> dict[str, dict[str, dict]]:
    """level -> game type -> its rating, once the ratings have taken every game."""
    deadline = time.monotonic() + 60
    while True:
        found = {
            level: requests.get(f"{url}/players/{BOT_RATERS[level]}", timeout=30).json()["ratings"]
            for level in ORDER
        }
        taken = all(found[level].get(kind, {}).get("games", 0) >= games
                    for level in ORDER for kind in kinds)  # fmt: skip
        if taken or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


def report(found: dict[str, dict[str, dict]], kinds: list[str]) -> bool:
    print(f"{'game':18} " + " ".join(f"{level + ' (display, mu, sigma)':>30}" for level in ORDER)
          + "  ordered")  # fmt: skip
    every = True
    for kind in kinds:
        shown = [found[level].get(kind) for level in ORDER]
        if any(r is None for r in shown):
            print(f"{kind:18} (not rated)")
            every = False
            continue
        ordered = all(a["display"] > b["display"] for a, b in zip(shown, shown[1:], strict=False))
        every = every and ordered
        cells = " ".join(f"{r['display']:>12.2f} {r['rating']:>7.2f} {r['uncertainty']:>7.2f}   "
                         for r in shown)  # fmt: skip
        print(f"{kind:18} {cells} {'yes' if ordered else 'NO'}")
    print(
        f"strong > basic > random by displayed rating in every game: {'PASS' if every else 'FAIL'}"
    )
    return every


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (needed)")
    p.add_argument("--games", type=int, default=30, help="rated games of each type")
    p.add_argument("--concurrent", type=int, default=6)
    p.add_argument("--bot-ms", type=int, default=100, help="the strong bot's time per move")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--types", nargs="+", choices=GAME_TYPES, default=list(GAME_TYPES))
    args = p.parse_args(argv)
    if not args.start:
        print("--start is needed: the bot levels' ratings must start from nothing")
        return 2
    from bench.service import started_service

    with started_service({"BOT_BUDGET_MS": str(args.bot_ms)}) as service:
        play(service.url, args.types, args.games, args.concurrent, random.Random(args.seed))
        found = ratings_of_levels(service.url, args.types, args.games)
        return 0 if report(found, args.types) else 1


if __name__ == "__main__":
    sys.exit(main())
