"""HTTP players for the benchmarks: games driven through the public API.

By default every action is built mechanically from the first `you.legal_actions` template
(docs/api.md): `min`/`max` -> `count`; `count` + `cards` -> that many cards; `cards` alone -> one
`card`. With a policy such as "basic", the client plays the way that bot would, from the same
view (useful to make St Patrick games last long enough to reach high versions).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self

import requests

from domain.games import GAME_TYPES
from domain.kit.templates import action_from_template

HUMAN_SEATS = 4
BOT_LEVEL = "basic"
POLL = 0.01  # s before reading a game again while nobody can act in it
TIMEOUT = 30.0
PLAY = "CardPlayed"
MOVE_TYPES = ("CardsPassed", PLAY)
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

    def state(self, game_id: str, token: str) -> dict[str, Any]:
        return self.json("GET", f"/games/{game_id}", token)


def expect(response: requests.Response, status: int) -> None:
    if response.status_code != status:
        raise BenchError(
            f"{response.request.method} {response.url}: {response.status_code}"
            f" {response.text[:300]}"
        )


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


# --- 4 humans --------------------------------------------------------------------------------


Timed = tuple[int, float]  # (the game's version before the action, latency in s)


def choose_action(view: dict[str, Any], rng: random.Random, policy: str) -> dict[str, Any]:
    """The client's next action: the first template's, or what bot `policy` would play."""
    if policy == "first":
        return action_from_template(view["you"]["legal_actions"][0], rng)
    return GAME_TYPES[view["type"]].bots[policy](view, rng)


@dataclass
class HumanResults:
    """Latencies of POST /games/{id}/actions, per game in play order, plus totals."""

    games: list[list[Timed]] = field(default_factory=list)
    state_reads: list[float] = field(default_factory=list)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add_game(self, latencies: list[Timed], reads: list[float]) -> None:
        with self.lock:
            self.games.append(latencies)
            self.state_reads.extend(reads)

    def add_error(self) -> None:
        with self.lock:
            self.errors += 1


@dataclass
class PlayedTable:
    """A table this client plays through the API: the tokens of the seats it plays (all of
    them at a table of humans, which `create` makes) and the game as last answered (`status`,
    `to_act`, `version`)."""

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
        self.state = api.state(self.id, self.tokens[0])


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
    """Plays one game of `players` humans to the end, seat s through apis[s % len(apis)] (one
    session for all seats, or one each); returns ((version, action latency) pairs, state-read
    latencies)."""
    table = PlayedTable.create(apis[0], rng, players)
    latencies: list[Timed] = []
    reads: list[float] = []
    while not table.finished:
        seat = table.seat_to_act()
        if seat is None:
            time.sleep(POLL)
            table.refresh(apis[0])
            continue
        turn = take_turn(apis[seat % len(apis)], table, seat, policy)
        reads.append(turn.read)
        latencies.append((turn.view["version"], turn.post))
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
    that interleaves several players' actions (sides in turn, stores in turn)."""

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


# --- 1 human + 3 bots ------------------------------------------------------------------------


@dataclass
class BotResults:
    """Bot reaction times (s) from the server's `recorded_at` timestamps."""

    after_human: list[float] = field(default_factory=list)  # human move -> next (bot) move
    any_hop: list[float] = field(default_factory=list)  # any move -> the bot move after it
    games: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add_game(self, after_human: list[float], hops: list[float]) -> None:
        with self.lock:
            self.after_human.extend(after_human)
            self.any_hop.extend(hops)
            self.games += 1

    def add_error(self) -> None:
        with self.lock:
            self.errors += 1


def play_bot_game(
    api: Api, rng: random.Random, poll: float, on_action: Callable[[], None]
) -> tuple[list[float], list[float]]:
    """Plays seat 0 against 3 basic bots; returns (human->bot delays, all ->bot delays)."""
    seats = [{"kind": "human", "name": "bench"}] + [{"kind": "bot", "level": BOT_LEVEL}] * 3
    game = api.create_game(seats)
    game_id, token = game["id"], game["tokens"][0]["token"]
    bots = {s["seat"] for s in game["seats"] if s["kind"] == "bot"}
    human_versions: list[int] = []
    etag = ""
    while True:
        response, _ = api.call("GET", f"/games/{game_id}", token, headers={"If-None-Match": etag})
        if response.status_code == 304:
            time.sleep(poll)
            continue
        expect(response, 200)
        etag = response.headers.get("ETag", "")
        state = response.json()
        if state["status"] == "finished":
            break
        templates = state["you"]["legal_actions"]
        if not templates:
            time.sleep(poll)
            continue
        action = action_from_template(templates[0], rng)
        response, _ = api.call("POST", f"/games/{game_id}/actions", token, json=action)
        expect(response, 201)
        on_action()
        body = response.json()
        first = body["events"][0]
        human_versions.append(first["version"])
        if bots & set(body["game"]["to_act"]):
            time.sleep(poll)
    moves = _moves(api, game_id, token)
    return _bot_delays(moves, bots, set(human_versions))


def _moves(api: Api, game_id: str, token: str) -> list[Move]:
    """Every move of the game: (version, seat, recorded_at)."""
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        response, _ = api.call(
            "GET", f"/games/{game_id}/events", token, params={"after": after, "limit": 1000}
        )
        expect(response, 200)
        page = response.json()["events"]
        if not page:
            break
        events.extend(page)
        after = page[-1]["version"]
    # A move is a seat's CardsPassed or CardPlayed (other events with a seat ride along).
    return [
        (event["version"], event["seat"], event["type"], parse_time(event["recorded_at"]))
        for event in events
        if event["type"] in MOVE_TYPES and event["seat"] is not None
    ]


def _bot_delays(
    moves: list[Move], bots: set[int], human_versions: set[int]
) -> tuple[list[float], list[float]]:
    after_human: list[float] = []
    hops: list[float] = []
    for (version, _, _, at), (_, next_seat, next_type, next_at) in zip(
        moves, moves[1:], strict=False
    ):
        if next_seat not in bots or next_type != PLAY:
            continue  # only a bot's play reacts to the move before it (passes are parallel)
        delay = (next_at - at).total_seconds()
        hops.append(delay)
        if version in human_versions:
            after_human.append(delay)
    return after_human, hops
