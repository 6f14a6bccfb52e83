"""A flood of bot work from one address, at its quotas, while another client plays: how long
does the other client wait for its bots? The service runs with its rate limits on, at their
defaults, and one worker process. The other client (127.0.0.1) plays Trick & Snipers against
three basic bots, a random legal card each turn; its *bot response* is the time from its
action's answer until the game waits for it again (or ends). First it plays alone
(`quiet_seconds`), then while the flooder (127.0.0.2), for `seconds`: asks for a five-seat table
of strong bots every 2 s (the bot-table quota); keeps `scripted` tables going, each of one
scripted human acting the moment it may and four strong bots; and asks every 2 s for a table
with one human who leaves at once (counted against the bot-table quota)."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from typing import Any

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api
from bench.support.stats import ms, percentile

FLOODER, PLAYER = "127.0.0.2", "127.0.0.1"
POLL = 0.02
STRONG = {"kind": "bot", "level": "strong"}


def table(api: Api, seats: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    response, _ = api.call("POST", "/games", json={"type": "trick_and_snipers", "seats": seats})
    return response.status_code, response.json()


def act(api: Api, game: str, token: str, view: dict[str, Any], rng: random.Random) -> int:
    from domain.kit.templates import action_from_template

    action = action_from_template(rng.choice(view["you"]["legal_actions"]), rng)
    return api.call("POST", f"/games/{game}/actions", token, json=action)[0].status_code


def play(url: str, seconds: float, seed: int) -> list[float]:
    """The other client's bot responses over `seconds` of play."""
    api, rng, responses = Api(url, source=PLAYER), random.Random(seed), list[float]()
    deadline, game, token = time.monotonic() + seconds, None, ""

    def my_turn(until: float) -> dict[str, Any] | None:  # None: the game ended, or time's up
        nonlocal game
        while time.monotonic() < until:
            view = api.json("GET", f"/games/{game}", token)
            if view["status"] == "finished":
                game = None
                return None
            if view["you"]["legal_actions"]:
                return view
            time.sleep(POLL)
        return None

    while time.monotonic() < deadline:
        if game is None:
            body = table(
                api, [{"kind": "human", "name": "player"}, *[{"kind": "bot", "level": "basic"}] * 3]
            )[1]
            game, token = body["id"], body["tokens"][0]["token"]
        if (view := my_turn(deadline)) is None:
            continue
        assert act(api, game, token, view, rng) == 201
        acted = time.monotonic()
        if my_turn(deadline + 30) is not None or game is None:
            responses.append(time.monotonic() - acted)
    return responses


def flood(url: str, scripted: int, seed: int, stop: threading.Event) -> Counter[str]:
    """Starts the flooder's threads; their answers, counted, until `stop`."""
    statuses: Counter[str] = Counter()

    def bot_tables() -> None:
        api = Api(url, source=FLOODER)
        while not stop.wait(2.0):
            statuses[f"bot table {table(api, [STRONG] * 5)[0]}"] += 1

    def left_at_once() -> None:
        api = Api(url, source=FLOODER)
        while not stop.wait(2.0):
            status, body = table(api, [{"kind": "human", "name": "gone"}, *[STRONG] * 4])
            if status == 201:
                leave = f"/games/{body['id']}/seats/0/leave"
                status = api.call("POST", leave, body["tokens"][0]["token"], json={})[0].status_code
            statuses[f"left at once {status}"] += 1

    def script(seed: int) -> None:
        api, rng = Api(url, source=FLOODER), random.Random(seed)
        while not stop.is_set():
            status, body = table(api, [{"kind": "human", "name": "script"}, *[STRONG] * 4])
            statuses[f"scripted table {status}"] += 1
            if status != 201:
                stop.wait(1.0)
                continue
            game, token = body["id"], body["tokens"][0]["token"]
            while not stop.is_set():
                view = api.json("GET", f"/games/{game}", token)
                if view["status"] == "finished":
                    break
                if view["you"]["legal_actions"]:
                    statuses[f"scripted action {act(api, game, token, view, rng)}"] += 1
                else:
                    stop.wait(POLL)

    threads = [threading.Thread(target=bot_tables), threading.Thread(target=left_at_once)]
    threads += [threading.Thread(target=script, args=(seed + i,)) for i in range(scripted)]
    for thread in threads:
        thread.daemon = True
        thread.start()
    return statuses


def run(context: Context, s: Settings) -> Figures:
    quiet = play(context.url, s["quiet_seconds"], s["seed"])
    stop = threading.Event()
    statuses = flood(context.url, s["scripted"], s["seed"], stop)
    flooded = play(context.url, s["seconds"], s["seed"])
    stop.set()
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
