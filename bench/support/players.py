"""HTTP players for the benchmarks: games driven through the public API, each action built
from the view's first `you.legal_actions` template, or chosen as a bot `policy` would (to
make St Patrick games last long enough to reach high versions)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self

import requests

from domain.games import GAME_TYPES
from domain.kit.templates import action_from_template

HUMAN_SEATS = 4
BOT = {"kind": "bot", "level": "basic"}
POLL = 0.01  # s before reading a game again while nobody can act in it
TIMEOUT = 30.0
Timed = tuple[int, float]  # (the game's version before the action, latency in s)
Move = tuple[int, int, str, datetime]  # version, seat, event type, recorded_at


class BenchError(RuntimeError):
    """The service answered something a well-behaved client cannot continue from."""


class SourceAdapter(requests.adapters.HTTPAdapter):
    """Connections from a given source address."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


class Api:
    """One keep-alive session (so one client thread = one TCP connection)."""

    def __init__(
        self, base_url: str, game_type: str = "trick_and_snipers", source: str | None = None
    ) -> None:
        self.base = base_url.rstrip("/")
        self.game_type = game_type
        self.session = requests.Session()
        if source:  # from another loopback address: another client, to the rate limits
            self.session.mount("http://", SourceAdapter(source))

    def close(self) -> None:
        self.session.close()

    def call(
        self, method: str, path: str, token: str | None = None, **kwargs: Any
    ) -> tuple[requests.Response, float]:
        """The response and its latency in seconds."""
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        response = self.session.request(
            method, self.base + path, headers=headers, timeout=TIMEOUT, **kwargs
        )
        return response, time.perf_counter() - started

    def json(
        self, method: str, path: str, token: str | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The answer's JSON; a BenchError for a status of 300 or more."""
        response, _ = self.call(method, path, token, **kwargs)
        if response.status_code >= 300:
            expect(response, 200)
        body: dict[str, Any] = response.json()
        return body

    def create_game(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        return self.json("POST", "/games", json={"type": self.game_type, "seats": seats})


def expect(response: requests.Response, status: int) -> None:
    if response.status_code != status:
        raise BenchError(
            f"{response.request.method} {response.url}: {response.status_code}"
            f" {response.text[:300]}"
        )


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def choose_action(view: dict[str, Any], rng: random.Random, policy: str) -> dict[str, Any]:
    """The client's next action: the first template's, or what bot `policy` would play."""
    if policy == "first":
        return action_from_template(view["you"]["legal_actions"][0], rng)
    return GAME_TYPES[view["type"]].bots[policy](view, rng)


@dataclass
class PlayedTable:
    """A table played through the API: the tokens of the seats this client plays and the game
    as last answered (`status`, `to_act`, `version`)."""

    id: str
    tokens: dict[int, str]
    state: dict[str, Any]
    rng: random.Random  # what each seat's choices draw from

    @classmethod
    def create(
        cls, api: Api, rng: random.Random, players: int = HUMAN_SEATS, name: str = "bench"
    ) -> Self:
        game = api.create_game([{"kind": "human", "name": f"{name}{i}"} for i in range(players)])
        return cls(game["id"], {t["seat"]: t["token"] for t in game["tokens"]}, game, rng)

    @property
    def finished(self) -> bool:
        return bool(self.state["status"] == "finished")

    def seat_to_act(self) -> int | None:
        """The first seat to act; None while nobody can (a worker's step, the next deal)."""
        return self.state["to_act"][0] if self.state["to_act"] else None

    def refresh(self, api: Api) -> None:
        self.state = api.json("GET", f"/games/{self.id}", self.tokens[0])


@dataclass
class Turn:
    view: dict[str, Any]  # the acting seat's, as it read it
    answer: dict[str, Any]  # the POST's
    read: float  # s: GET /games/{id}
    post: float  # s: POST /games/{id}/actions


def take_turn(api: Api, table: PlayedTable, seat: int, policy: str = "first") -> Turn:
    """One action, as every bench plays one: `seat` reads its view (for its legal actions),
    then sends what `policy` chooses from it."""
    response, read = api.call("GET", f"/games/{table.id}", table.tokens[seat])
    expect(response, 200)
    view = response.json()
    if not view["you"]["legal_actions"]:
        raise BenchError(f"seat {seat} is in to_act but has no legal action")
    action = choose_action(view, table.rng, policy)
    response, post = api.call("POST", f"/games/{table.id}/actions", table.tokens[seat], json=action)
    expect(response, 201)
    answer = response.json()
    table.state = answer["game"]
    return Turn(view, answer, read, post)


def play_human_game(
    apis: list[Api],
    rng: random.Random,
    on_action: Callable[[], None],
    policy: str = "first",
    players: int = HUMAN_SEATS,
) -> tuple[list[Timed], list[float]]:
    """Plays one game of `players` humans to the end, seat s through apis[s % len(apis)];
    returns ((version, action latency) pairs, state-read latencies)."""
    table = PlayedTable.create(apis[0], rng, players)
    latencies: list[Timed] = []
    reads: list[float] = []
    while not table.finished:
        if (seat := table.seat_to_act()) is None:
            time.sleep(POLL)
            table.refresh(apis[0])
            continue
        turn = take_turn(apis[seat % len(apis)], table, seat, policy)
        latencies.append((turn.view["version"], turn.post))
        reads.append(turn.read)
        on_action()
    return latencies, reads


@dataclass
class Tally:
    """One client thread's counts, for a bench that compares sides action by action."""

    posts: list[float] = field(default_factory=list)
    action_requests: int = 0  # the GET + POST of each action
    other_requests: int = 0  # game creation, polls while a worker deals


class TablePlayer:
    """Human tables played one action at a time, a new game as soon as one ends: for a bench
    that interleaves several players' actions."""

    def __init__(
        self, api: Api, rng: random.Random, policy: str, players: int = HUMAN_SEATS
    ) -> None:
        self.api = api
        self.rng = rng
        self.policy = policy
        self.players = players
        self.table: PlayedTable | None = None
        self.last: tuple[dict[str, Any], dict[str, Any]] | None = None  # (view, answer)

    @property
    def finished(self) -> bool:
        return self.table is None or self.table.finished

    def act(self, tally: Tally) -> None:
        while True:
            if self.table is None or self.table.finished:
                self.table = PlayedTable.create(self.api, self.rng, self.players)
            elif (seat := self.table.seat_to_act()) is None:
                time.sleep(POLL)
                self.table.refresh(self.api)
            else:
                break
            tally.other_requests += 1
        turn = take_turn(self.api, self.table, seat, self.policy)
        tally.posts.append(turn.post)
        tally.action_requests += 2
        self.last = (turn.view, turn.answer)


def play_bot_game(
    api: Api, rng: random.Random, poll: float, on_action: Callable[[], None]
) -> tuple[list[float], list[float]]:
    """Plays seat 0 against 3 basic bots; returns the bots' reaction times from the events'
    `recorded_at`: (human move -> next bot move, any move -> next bot move)."""
    game = api.create_game([{"kind": "human", "name": "bench"}, *[BOT] * 3])
    path, token = f"/games/{game['id']}", game["tokens"][0]["token"]
    bots = {s["seat"] for s in game["seats"] if s["kind"] == "bot"}
    human_versions: set[int] = set()
    etag = ""
    while True:
        response, _ = api.call("GET", path, token, headers={"If-None-Match": etag})
        if response.status_code == 304:
            time.sleep(poll)
            continue
        expect(response, 200)
        etag = response.headers.get("ETag", "")
        state = response.json()
        if state["status"] == "finished":
            break
        if not state["you"]["legal_actions"]:
            time.sleep(poll)
            continue
        action = action_from_template(state["you"]["legal_actions"][0], rng)
        response, _ = api.call("POST", f"{path}/actions", token, json=action)
        expect(response, 201)
        on_action()
        body = response.json()
        human_versions.add(body["events"][0]["version"])
        if bots & set(body["game"]["to_act"]):
            time.sleep(poll)
    return _bot_delays(_moves(api, path, token), bots, human_versions)


def _moves(api: Api, path: str, token: str) -> list[Move]:
    """Every move of the game: a seat's CardsPassed or CardPlayed (other events ride along)."""
    moves: list[Move] = []
    after = 0
    while True:
        params = {"after": after, "limit": 1000}
        page = api.json("GET", f"{path}/events", token, params=params)["events"]
        if not page:
            return moves
        moves += [
            (event["version"], event["seat"], event["type"], parse_time(event["recorded_at"]))
            for event in page
            if event["type"] in ("CardsPassed", "CardPlayed") and event["seat"] is not None
        ]
        after = page[-1]["version"]


def _bot_delays(
    moves: list[Move], bots: set[int], human_versions: set[int]
) -> tuple[list[float], list[float]]:
    after_human: list[float] = []
    hops: list[float] = []
    for (version, _, _, at), (_, seat, kind, next_at) in zip(moves, moves[1:], strict=False):
        if seat not in bots or kind != "CardPlayed":
            continue  # only a bot's play reacts to the move before it (passes are parallel)
        hops.append((next_at - at).total_seconds())
        if version in human_versions:
            after_human.append(hops[-1])
    return after_human, hops
