"""Clients playing whole games through the HTTP API while faults happen: each thread plays
games of one type back to back (its human seats with random legal actions, the bots on the
workers) until told to start no more, retrying what an outage refused the way a client should
(same Idempotency-Key, after a short wait; another API on a refused connection)."""

from __future__ import annotations

import itertools
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

import requests

from domain.kit.templates import action_from_template

EXPECTED = {200, 201, 304, 409, 503}  # 409: the game moved on since the client looked


@dataclass(frozen=True)
class Seen:
    """One response a client got."""

    method: str
    path: str
    status: int
    content_type: str
    code: str | None


@dataclass
class Traffic:
    """Every response the clients saw, shared by their threads."""

    seen: list[Seen] = field(default_factory=list)
    refused_connections: int = 0  # requests that got no answer (the API was down)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, method: str, path: str, response: requests.Response) -> None:
        code = None
        if "json" in response.headers.get("Content-Type", ""):
            try:
                body = response.json()
                code = body.get("code") if isinstance(body, dict) else None
            except ValueError:
                code = "<not json>"
        seen = Seen(
            method, path, response.status_code, response.headers.get("Content-Type", ""), code
        )
        with self.lock:
            self.seen.append(seen)

    def unexpected(self) -> list[Seen]:
        """Responses no fault excuses: a 5xx other than 503 `unavailable` as problem+json, or a
        status a correct client never gets."""
        bad = []
        for s in self.seen:
            if s.status not in EXPECTED:
                bad.append(s)
            elif s.status == 503 and (
                s.code != "unavailable" or s.content_type != "application/problem+json"
            ):
                bad.append(s)
        return bad

    def count(self, status: int) -> int:
        return sum(s.status == status for s in self.seen)


@dataclass
class Played:
    """A game a client created, and every event a 201 acknowledged: (version, type, seat)."""

    game_id: str
    game_type: str
    acknowledged: list[tuple[int, str, int | None]] = field(default_factory=list)
    finished: bool = False


class GaveUp(RuntimeError):
    pass


class Player(threading.Thread):
    def __init__(
        self,
        apis: list[str],
        game_type: str,
        seats: list[dict],
        traffic: Traffic,
        no_new_games: threading.Event,
        deadline: float,
        seed: int,
    ) -> None:
        super().__init__(daemon=True, name=f"player-{game_type}-{seed}")
        self.apis = apis
        self.api = itertools.cycle(range(len(apis)))
        self.current = next(self.api)
        for _ in range(seed % len(apis)):  # clients spread over the APIs
            self.current = next(self.api)
        self.game_type = game_type
        self.seats = seats
        self.traffic = traffic
        self.no_new_games = no_new_games
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.session = requests.Session()
        self.games: list[Played] = []
        self.error: BaseException | None = None
        self.halted = threading.Event()  # the scenario is over: stop at once

    def run(self) -> None:
        try:
            while not self.no_new_games.is_set():
                self.play_one_game()
        except BaseException as error:  # reported by the scenario
            self.error = error

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        """The request, again while the service is unavailable (503, connection refused)."""
        while True:
            if time.monotonic() > self.deadline or self.halted.is_set():
                raise GaveUp(f"{method} {path}: still unavailable at the deadline")
            url = self.apis[self.current] + path
            try:
                response = self.session.request(method, url, timeout=10, **kwargs)
            except requests.RequestException:  # refused, reset, cut mid-answer, timed out
                with self.traffic.lock:
                    self.traffic.refused_connections += 1
                self.current = next(self.api)
                self.session = requests.Session()
                time.sleep(0.1)
                continue
            self.traffic.add(method, path.split("?")[0], response)
            if response.status_code != 503:
                return response
            time.sleep(0.2)

    def play_one_game(self) -> None:
        body = {"type": self.game_type, "seats": self.seats, "options": {}}
        created = self.call(
            "POST", "/games", json=body, headers={"Idempotency-Key": str(uuid.uuid4())}
        )
        if created.status_code != 201:
            raise AssertionError(f"creating a game: {created.status_code} {created.text}")
        data = created.json()
        played = Played(data["id"], self.game_type)
        self.games.append(played)
        tokens = {entry["seat"]: entry["token"] for entry in data["tokens"]}
        path = f"/games/{played.game_id}"
        while True:
            game = self.call("GET", path).json()
            if game["status"] == "finished":
                played.finished = True
                return
            mine = [seat for seat in game["to_act"] if seat in tokens]
            if not mine:
                time.sleep(0.1)  # the bots (or the scoring) are on the workers
                continue
            self.act(played, self.rng.choice(mine), tokens)

    def act(self, played: Played, seat: int, tokens: dict[int, str]) -> None:
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        path = f"/games/{played.game_id}"
        view = self.call("GET", path, headers=auth).json()
        if seat not in view["to_act"]:
            return
        template = self.rng.choice(view["you"]["legal_actions"])
        action = action_from_template(template, self.rng)
        headers = {**auth, "Idempotency-Key": str(uuid.uuid4())}  # kept across retries
        response = self.call("POST", f"{path}/actions", json=action, headers=headers)
        if response.status_code == 201:
            for event in response.json()["events"]:
                played.acknowledged.append((event["version"], event["type"], event["seat"]))
        elif response.status_code != 409:
            raise AssertionError(f"acting: {response.status_code} {response.text}")
