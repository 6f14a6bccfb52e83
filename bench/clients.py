"""The Python client's overhead per action: games of one human seat (bots on the workers, the
four types in turn) played through cardroom_client and with raw httpx calls, one of each in
turn; measured as the p50 difference, and inside the client (an act less its transport's time)."""

from __future__ import annotations

import itertools
import json
import statistics
import time
import uuid
from typing import Any

import httpx
from cardroom_client import Cardroom, Game, bot, first_legal_action, human

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings

GAMES = ["trick_and_snipers", "saint_poker", "ouroboros_trick", "st_patrick"]
SIZE = {"trick_and_snipers": 3, "saint_poker": 2, "ouroboros_trick": 3, "st_patrick": 3}


class TimedTransport(httpx.BaseTransport):
    """The real transport, timing each request with its whole answer read."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.last = 0.0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        started = time.perf_counter()
        response = self.inner.handle_request(request)
        if request.method == "POST":
            response.read()
        self.last = time.perf_counter() - started
        return response


def seats(game_type: str) -> list[Any]:
    return [human("Ann"), *[bot("basic")] * (SIZE[game_type] - 1)]


def play_with_client(url: str, game_type: str) -> tuple[list[float], list[float]]:
    """Each act's time, and each act's time less its transport's."""
    transport = TimedTransport()
    acts, overheads = [], []
    with Cardroom(url) as cr:
        cr._http = httpx.Client(base_url=url, timeout=10.0, transport=transport)
        seat = cr.create_game(game_type, seats(game_type)).seat(0)
        for _event in itertools.chain([None], seat.events()):  # a look before the first event
            game = seat.view()
            if game.my_turn():
                started = time.perf_counter()
                seat.act(first_legal_action(game))
                acts.append(time.perf_counter() - started)
                overheads.append(acts[-1] - transport.last)
    return acts, overheads


def play_raw(url: str, game_type: str) -> list[float]:
    """Each POST's time, the action chosen as the client chooses it (not timed)."""
    acts = []
    with httpx.Client(base_url=url, timeout=10.0) as http:
        body = {"type": game_type, "seats": seats(game_type), "options": {}}
        created = http.post("/games", json=body).json()
        game_id, token = created["id"], created["tokens"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}

        def maybe_act() -> None:
            game = Game.of(http.get(f"/games/{game_id}", headers=auth).json())
            if game.my_turn():
                action = first_legal_action(game)
                headers = auth | {"Idempotency-Key": str(uuid.uuid4())}
                started = time.perf_counter()
                answer = http.post(f"/games/{game_id}/actions", json=action, headers=headers)
                json.loads(answer.content)
                acts.append(time.perf_counter() - started)
                assert answer.status_code == 201, answer.text

        maybe_act()
        stream = auth | {"Accept": "text/event-stream"}
        timeout = httpx.Timeout(10.0, read=45.0)
        with http.stream(
            "GET", f"/games/{game_id}/events/stream", headers=stream, timeout=timeout
        ) as events:
            for line in events.iter_lines():
                if line.startswith("id:"):
                    maybe_act()
    return acts


def run(context: Context, s: Settings) -> Figures:
    client_acts: list[float] = []
    overheads: list[float] = []
    raw_acts: list[float] = []
    for i in range(s["games"]):
        game_type = GAMES[i % len(GAMES)]
        acts, over = play_with_client(context.url, game_type)
        client_acts += acts
        overheads += over
        raw_acts += play_raw(context.url, game_type)
    client_p50, raw_p50 = statistics.median(client_acts), statistics.median(raw_acts)
    return {
        "client_actions": len(client_acts),
        "raw_actions": len(raw_acts),
        "client_post_p50_ms": round(1000 * client_p50, 2),
        "raw_post_p50_ms": round(1000 * raw_p50, 2),
        "difference_p50_ms": round(1000 * (client_p50 - raw_p50), 2),
        "inside_client_p50_ms": round(1000 * statistics.median(overheads), 2),
        "inside_client_p95_ms": round(1000 * statistics.quantiles(overheads, n=20)[-1], 2),
    }


BENCHMARK = Benchmark(
    name="clients",
    about="the Python client's overhead per action, against raw httpx calls",
    run=run,
    needs_service=True,
    settings={"games": (20, 1)},
    goals=[
        Goal("inside_client_p50_ms", "<=", 1.0, "ms", "the Python client's overhead per action at "
            "p50 <= 1 ms (inside the client: an act less its HTTP transport)"),
        Goal("difference_p50_ms", "<=", 1.0, "ms", "the same, POST p50 through the client less "
            "with raw httpx"),
    ],
)  # fmt: skip
