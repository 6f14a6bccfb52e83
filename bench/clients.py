"""The Python client's cost: whole games (one human seat played from this process, bots on the
server's workers; the four types in turn) played through cardroom_client, and the same games
played with raw httpx calls (GET the view, POST the action, read the event stream), one of
each in turn so that both see the same server. Printed: each way's wall time and POST p50, and
the client's overhead per action, measured two ways: the p50 difference between the two, and
inside the client (an act's time less the time its HTTP transport took, at p50).

    .venv/bin/python -m bench.clients --start --games 20
    .venv/bin/python -m bench.clients --url http://127.0.0.1:8000 --games 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
from cardroom_client import Cardroom, bot, first_legal_action, human

from bench.service import started_service

GAMES = ["trick_and_snipers", "saint_poker", "ouroboros_trick", "st_patrick"]
GOAL_SECONDS = 0.001  # the client's overhead per action at p50
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

        def act(game: Any) -> None:
            started = time.perf_counter()
            seat.act(first_legal_action(game))
            acts.append(time.perf_counter() - started)
            overheads.append(acts[-1] - transport.last)

        game = seat.view()
        if game.my_turn():
            act(game)
        for _event in seat.events():
            game = seat.view()
            if game.my_turn():
                act(game)
    return acts, overheads


def _raw_stream(http: httpx.Client, game_id: str, token: str) -> Iterator[str]:
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    timeout = httpx.Timeout(10.0, read=45.0)
    with http.stream(
        "GET", f"/games/{game_id}/events/stream", headers=headers, timeout=timeout
    ) as r:
        for line in r.iter_lines():
            if line.startswith("id:"):
                yield line


def play_raw(url: str, game_type: str) -> list[float]:
    acts = []
    with httpx.Client(base_url=url, timeout=10.0) as http:
        body = {"type": game_type, "seats": seats(game_type), "options": {}}
        created = http.post("/games", json=body).json()
        game_id, token = created["id"], created["tokens"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}

        def maybe_act() -> None:
            view = http.get(f"/games/{game_id}", headers=auth).json()
            you = view.get("you") or {}
            if you.get("seat") in view["to_act"] and you.get("legal_actions"):
                template = you["legal_actions"][0]
                action: dict[str, Any] = {"type": template["type"]}
                if "min" in template:
                    action["count"] = template["min"]
                elif "count" in template and "cards" in template:
                    action["cards"] = template["cards"][: template["count"]]
                elif "cards" in template:
                    action["card"] = template["cards"][0]
                headers = auth | {"Idempotency-Key": str(uuid.uuid4())}
                started = time.perf_counter()
                answer = http.post(f"/games/{game_id}/actions", json=action, headers=headers)
                json.loads(answer.content)
                acts.append(time.perf_counter() - started)
                assert answer.status_code == 201, answer.text

        maybe_act()
        for _id in _raw_stream(http, game_id, token):
            maybe_act()
    return acts


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def run(url: str, games: int) -> bool:
    client_acts: list[float] = []
    overheads: list[float] = []
    raw_acts: list[float] = []
    client_wall = raw_wall = 0.0
    for i in range(games):
        game_type = GAMES[i % len(GAMES)]
        started = time.perf_counter()
        acts, over = play_with_client(url, game_type)
        client_wall += time.perf_counter() - started
        client_acts += acts
        overheads += over
        started = time.perf_counter()
        raw_acts += play_raw(url, game_type)
        raw_wall += time.perf_counter() - started
    client_p50, raw_p50 = statistics.median(client_acts), statistics.median(raw_acts)
    print(f"{games} games each way ({', '.join(GAMES)} in turn), one human seat, bots basic")
    client = f"{client_wall:.2f} s, {len(client_acts)} actions, POST p50 {ms(client_p50)}"
    print(f"cardroom_client: {client}")
    print(f"raw httpx:       {raw_wall:.2f} s, {len(raw_acts)} actions, POST p50 {ms(raw_p50)}")
    print(f"overhead per action, p50 difference: {ms(client_p50 - raw_p50)}")
    inside = statistics.median(overheads)
    print(
        f"overhead per action, inside the client (act less its transport): p50"
        f" {ms(inside)}, p95 {ms(statistics.quantiles(overheads, n=20)[-1])}"
    )
    passed = inside <= GOAL_SECONDS and client_p50 - raw_p50 <= GOAL_SECONDS
    print(f"{'PASS' if passed else 'FAIL'}: the client's overhead per action at p50 <= 1 ms")
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the running service")
    parser.add_argument("--start", action="store_true", help="start the service (embedded.run)")
    parser.add_argument("--games", type=int, default=20, help="whole games each way")
    options = parser.parse_args(argv)
    if options.start:
        with started_service() as service:
            return 0 if run(service.url, options.games) else 1
    return 0 if run(options.url, options.games) else 1


if __name__ == "__main__":
    raise SystemExit(main())
