"""A flood of bot work from one address, at its quotas, while another client plays: how long
does the other client wait for its bots? With the rate limits on (their defaults) and one worker,
the other client (127.0.0.1) plays Trick & Snipers against three basic bots; its *bot response*
is the time from its action's answer until the game waits for it again (or ends). It plays alone
(`quiet_seconds`), then for `seconds` while the flooder (127.0.0.2) asks every 2 s for a table of
five strong bots and for one whose human leaves at once (the bot-table quota), and keeps
`scripted` tables of a human acting the moment it may and four strong bots."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api
from bench.support.stats import in_background, ms, percentile
from domain.kit.templates import action_from_template

FLOODER, PLAYER = "127.0.0.2", "127.0.0.1"
POLL = 0.02
STRONG = {"kind": "bot", "level": "strong"}


def table(api: Api, seats: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    response, _ = api.call("POST", "/games", json={"type": "trick_and_snipers", "seats": seats})
    return response.status_code, response.json()


def act(api: Api, game: str, token: str, view: dict[str, Any], rng: random.Random) -> int:
    action = action_from_template(rng.choice(view["you"]["legal_actions"]), rng)
    return api.call("POST", f"/games/{game}/actions", token, json=action)[0].status_code


def next_turn(
    api: Api, game: str, token: str, stopped: Callable[[], bool]
) -> dict[str, Any] | None:
    """Seat 0's view once it may act or the game has ended; None if `stopped` first."""
    while not stopped():
        view = api.json("GET", f"/games/{game}", token)
        if view["status"] == "finished" or view["you"]["legal_actions"]:
            return view
        time.sleep(POLL)
    return None


def play(url: str, seconds: float, seed: int) -> list[float]:
    """The other client's bot responses over `seconds` of play."""
    api, rng, responses = Api(url, source=PLAYER), random.Random(seed), list[float]()
    deadline, game, token = time.monotonic() + seconds, None, ""
    while time.monotonic() < deadline:
        if game is None:
            seats = [{"kind": "human", "name": "player"}, *[{"kind": "bot", "level": "basic"}] * 3]
            body = table(api, seats)[1]
            game, token = body["id"], body["tokens"][0]["token"]
        view = next_turn(api, game, token, lambda: time.monotonic() >= deadline)
        if view is None:
            continue
        if view["status"] == "finished":
            game = None
            continue
        assert act(api, game, token, view, rng) == 201
        acted = time.monotonic()
        after = next_turn(api, game, token, lambda: time.monotonic() >= deadline + 30)
        if after is not None:
            responses.append(time.monotonic() - acted)
            if after["status"] == "finished":
                game = None
    return responses


def flooders(
    url: str, scripted: int, seed: int, statuses: Counter[str]
) -> Sequence[Callable[[threading.Event], None]]:
    """The flooder's threads, each counting its answers in `statuses` until its `stop`."""

    def bot_tables(leave: bool, stop: threading.Event) -> None:
        api = Api(url, source=FLOODER)
        seats = [{"kind": "human", "name": "gone"}, *[STRONG] * 4] if leave else [STRONG] * 5
        while not stop.wait(2.0):
            status, body = table(api, seats)
            if leave and status == 201:
                path, token = f"/games/{body['id']}/seats/0/leave", body["tokens"][0]["token"]
                status = api.call("POST", path, token, json={})[0].status_code
            statuses[f"{'left at once' if leave else 'bot table'} {status}"] += 1

    def script(seed: int, stop: threading.Event) -> None:
        api, rng = Api(url, source=FLOODER), random.Random(seed)
        while not stop.is_set():
            status, body = table(api, [{"kind": "human", "name": "script"}, *[STRONG] * 4])
            statuses[f"scripted table {status}"] += 1
            if status != 201:
                stop.wait(1.0)
                continue
            game, token = body["id"], body["tokens"][0]["token"]
            while (view := next_turn(api, game, token, stop.is_set)) and view[
                "status"
            ] != "finished":
                statuses[f"scripted action {act(api, game, token, view, rng)}"] += 1

    tables = [partial(bot_tables, leave) for leave in (False, True)]
    return tables + [partial(script, seed + i) for i in range(scripted)]


def run(context: Context, s: Settings) -> Figures:
    quiet = play(context.url, s["quiet_seconds"], s["seed"])
    statuses: Counter[str] = Counter()
    with in_background(flooders(context.url, s["scripted"], s["seed"], statuses)):
        flooded = play(context.url, s["seconds"], s["seed"])
    figures: Figures = {}
    for name, responses in (("quiet", quiet), ("flood", flooded)):
        figures |= {f"{name}_responses": len(responses),
                    f"{name}_response_p50_ms": round(ms(percentile(responses, 50)), 1),
                    f"{name}_response_p95_s": round(percentile(responses, 95), 3)}  # fmt: skip
    return figures | {f"flooder {what}": n for what, n in sorted(statuses.items())}


BENCHMARK = Benchmark(
    name="bot_flood",
    about="another client's bot response while one address floods bot work at its quotas",
    run=run,
    needs_service=True,
    service_env={"RATE_LIMITS": "on"},
    settings={"seconds": (120.0, 4.0), "quiet_seconds": (45.0, 2.0), "scripted": (12, 2),
        "seed": 1},
    goals=[
        Goal("flood_response_p95_s", "<=", 1.5, "s", "another client's bot response p95 <= 1.5 s "
            "while one address floods bot work at its quotas"),
    ],
)  # fmt: skip
