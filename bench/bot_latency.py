"""How long a bot's move takes on the workers, seen through the API: tables of bots only, each
move timed from the event before it (the commit that queued the turn) to the bot's own event,
on the database's clock (`recorded_at`). That is relay, queue, load, the bot's thinking (a
strong bot thinks for BOT_BUDGET_MS) and the commit.

    .venv/bin/python -m bench.bot_latency --level strong --games 3

Starts a service as `make run` does (bench/service.py), with one RQ worker.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import datetime

from bench.players import Api, expect
from bench.service import started_service
from bench.stats import percentile

PLAYERS = {"trick_and_snipers": 4, "st_patrick": 4, "ouroboros_trick": 4, "saint_poker": 4}
CHOICES = {"CardPlayed", "CardsPassed", "RelicsTaken", "RelicsDeclined", "PassCountSet",
           "CardsDiscarded", "RiverCardCommitted", "RevealChosen", "CardPickedUp"}  # fmt: skip
# Choices every seat makes at once (G3): with one worker their jobs queue behind each other, so
# their delay includes the other bots' thinking; reported apart.
SIMULTANEOUS = {"CardsPassed", "RiverCardCommitted", "RevealChosen"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="strong")
    parser.add_argument("--games", type=int, default=3, help="games per game type")
    parser.add_argument("--budget-ms", type=int, default=300)
    parser.add_argument("--types", default=",".join(PLAYERS))
    args = parser.parse_args()
    settings = {"BOT_BUDGET_MS": str(args.budget_ms), "RQ_WORKERS": "1", "LOG_LEVEL": "WARNING"}
    with started_service(settings) as service:
        api = Api(service.url)
        for game_type in args.types.split(","):
            moves = [m for _ in range(args.games) for m in play(api, game_type, args.level)]
            turns = [ms for kind, ms in moves if kind not in SIMULTANEOUS]
            report(game_type, "turns", args.level, args.budget_ms, turns)
            report(game_type, "all", args.level, args.budget_ms, [ms for _, ms in moves])


def play(api: Api, game_type: str, level: str) -> list[tuple[str, float]]:
    """Each bot move of one game of bots at `level`: (event type, milliseconds)."""
    api.game_type = game_type
    game_id = api.create_game([{"kind": "bot", "level": level}] * PLAYERS[game_type])["id"]
    deadline = time.monotonic() + 600
    while api.call("GET", f"/games/{game_id}")[0].json()["status"] != "finished":
        if time.monotonic() > deadline:
            raise SystemExit(f"{game_type} game {game_id} did not finish")
        time.sleep(0.2)
    log: list[dict] = []
    while page := events_after(api, game_id, len(log)):
        log.extend(page)
    delays = []
    for before, event in zip(log, log[1:], strict=False):
        if event["type"] in CHOICES and before["version"] == event["version"] - 1:
            seconds = _at(event) - _at(before)
            if before["type"] not in CHOICES or before["data"].get("seat") != event["data"].get(
                "seat"
            ):
                delays.append((event["type"], seconds * 1000))
    return delays


def events_after(api: Api, game_id: str, after: int) -> list[dict]:
    params = {"limit": 1000, "after": after}
    response, _ = api.call("GET", f"/games/{game_id}/events", params=params)
    expect(response, 200)
    return response.json()["events"]


def _at(event: dict) -> float:
    return datetime.fromisoformat(event["recorded_at"].replace("Z", "+00:00")).timestamp()


def report(game_type: str, which: str, level: str, budget: int, delays: list[float]) -> None:
    if not delays:
        return
    p50, p95 = statistics.median(delays), percentile(delays, 95)
    print(f"{game_type:18} {which:5} level={level} budget={budget}ms moves={len(delays)} "
          f"p50={p50:.0f}ms p95={p95:.0f}ms max={max(delays):.0f}ms")  # fmt: skip


if __name__ == "__main__":
    main()
