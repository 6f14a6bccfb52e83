"""Do the ratings order the bot levels? A tournament through the matchmaker: players that each
stand for a level (`strong`, `basic`, `random`) queue for rated tables (`POST /me/queue`), the
matcher on the service's worker seats them, and each plays its seat from its own view with its
level's bot, client-side: on each notice of its `/me/stream` (`match_found`, `your_turn`) it
reads the game with its key (`GET /games/{id}`), decides with the domain's bot of its level and
a generator seeded from `seed`, its name and the game, and posts the action
(`POST /games/{id}/actions`, with `expected_version`). Once a game has ended it joins the
queue again, until its game type has had `games` games.

Each game type has `per_level` players of each level (2: six players, tables of three), all
asking for tables of 3 (every game is played at 3), rated, with no bots: the matcher alone
decides who meets whom, by rating window (docs/players.md). Two of a level give it company
near its rating, so a table forms within seconds even once the levels' ratings lie far apart
(a lone strong, basic and random would wait for their windows to cover the whole spread);
tables mix levels whenever the players waiting do. Each game type is played by a process of
its own, each player a thread in it.

At the end every player's rating of its type is read from its profile (`GET /players/{id}`),
once the ratings have taken all its games; a level's figure is the mean over its players, and
the bench says whether strong > basic > random by displayed rating (mu - 3 sigma) in every
game.

`bot_ms`: the strong bot's thinking time per decision, wall clock (as the workers give it:
BOT_BUDGET_MS, 300 ms by default); `iterations` K instead gives it Iterations(K), the same
work whatever the machine's load.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import requests

from bench.bot_strength.games import LEVELS
from bench.support.benchmark import Benchmark, Context, Figures, Goal
from bench.support.benchmark import Settings as Given
from bench.support.stats import in_threads, percentile
from domain.games import GAME_TYPES
from domain.kit.budget import Budget, Deadline, Iterations
from testing.sse import Stream

TYPES = ("trick_and_snipers", "ouroboros_trick", "saint_poker", "st_patrick")
TABLE_SIZE = 3
NOTICE_WAIT = 2.0  # seconds without a notice before a player reads its game anyway
RATINGS_PATIENCE = 120.0


@dataclass
class Player:
    id: str
    key: str
    name: str
    level: str
    games: int = 0  # finished
    waits: list[float] = field(default_factory=list)  # seconds from each join to its match


@dataclass
class Settings:
    url: str
    game_type: str
    games: int
    per_level: int
    seed: int
    bot_ms: int
    iterations: int | None


def _ok(response: requests.Response) -> dict[str, Any]:
    if response.status_code >= 300:
        raise RuntimeError(f"{response.request.method} {response.url}: {response.status_code}"
                           f" {response.text}")  # fmt: skip
    body: dict[str, Any] = response.json()
    return body


class TypeTournament:
    """One game type's players, each a thread that queues, plays and queues again."""

    def __init__(self, settings: Settings) -> None:
        self.s = settings
        self.lock = threading.Lock()
        self.started_games: set[str] = set()
        self.finished_games: set[str] = set()
        self.failures: list[str] = []

    def run(self) -> dict[str, Any]:
        session = requests.Session()
        players = [
            self._new_player(session, level, index)
            for index in range(self.s.per_level)
            for level in LEVELS
        ]
        in_threads(self._guarded, [(p,) for p in players])
        return {
            "game_type": self.s.game_type,
            "games": len(self.finished_games),
            "failures": self.failures,
            "players": [vars(p) for p in players],
        }

    def _new_player(self, session: requests.Session, level: str, index: int) -> Player:
        name = f"{level}-{self.s.game_type}-{index + 1}"
        made = _ok(session.post(f"{self.s.url}/players", json={"name": name}, timeout=30))
        return Player(made["id"], made["key"], name, level)

    def _more_wanted(self) -> bool:
        with self.lock:
            return len(self.started_games) < self.s.games

    def _guarded(self, player: Player) -> None:
        try:
            self._play(player)
        except Exception as error:  # noqa: BLE001 - reported, and the others play on
            with self.lock:
                self.failures.append(f"{player.name}: {type(error).__name__}: {error}")

    def _play(self, player: Player) -> None:
        """Queue, play the table the matcher gives, queue again; until enough games."""
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {player.key}"
        bot = GAME_TYPES[self.s.game_type].bots[player.level]
        notices = _notices(self.s.url, player.key)
        while self._more_wanted():
            joined = time.monotonic()
            _ok(session.post(f"{self.s.url}/me/queue", timeout=30, json={
                "type": self.s.game_type, "players": [TABLE_SIZE], "rated": True}))  # fmt: skip
            seated = self._matched(session, notices)
            if seated is None:
                return  # enough games: it left the queue
            game_id, seat = seated
            player.waits.append(time.monotonic() - joined)
            with self.lock:
                self.started_games.add(game_id)
            rng = random.Random(f"{self.s.seed}/{player.name}/{game_id}")
            while not self._act(session, game_id, seat, bot, rng):
                _next_turn(notices, game_id)
            player.games += 1
            with self.lock:
                self.finished_games.add(game_id)

    def _matched(
        self, session: requests.Session, notices: Iterator[dict[str, Any] | None]
    ) -> tuple[str, int] | None:
        """The game and seat of the player's `match_found`; None once enough games have
        started and the player has left the queue instead."""
        for notice in notices:
            if notice is not None and notice["kind"] == "match_found":
                return notice["game_id"], notice["seat"]
            if notice is None and not self._more_wanted():
                left = session.delete(f"{self.s.url}/me/queue", timeout=30)
                if left.status_code == 204:
                    return None
                if left.status_code != 409:  # 409: seated meanwhile; its notice is coming
                    _ok(left)
        raise RuntimeError("the notice stream ended")

    def _act(self, session: requests.Session, game_id: str, seat: int, bot: Callable[..., Any],
             rng: random.Random) -> bool:  # fmt: skip
        """Acts for as long as the game waits for the seat; whether the game is over."""
        url = f"{self.s.url}/games/{game_id}"
        while True:
            view = _ok(session.get(url, timeout=30))
            if view["status"] == "finished":
                return True
            if seat not in view["to_act"] or not view["you"]["legal_actions"]:
                return False
            action = bot(view, rng, self._budget())
            answer = session.post(f"{url}/actions", timeout=30,
                                  json={**action, "expected_version": view["version"]})  # fmt: skip
            if answer.status_code != 409:  # a conflict: read again and decide anew
                _ok(answer)

    def _budget(self) -> Budget:
        if self.s.iterations is not None:
            return Iterations(self.s.iterations)
        return Deadline(time.monotonic, self.s.bot_ms / 1000)


def _notices(url: str, key: str) -> Iterator[dict[str, Any] | None]:
    """The player's notices from `/me/stream`, and None whenever NOTICE_WAIT passes without
    one (the server's heartbeat comments, every second here, wake the read)."""
    stream = Stream(f"{url}/me/stream", {"Authorization": f"Bearer {key}"}, timeout=30)
    if stream.status != 200:
        raise RuntimeError(f"GET /me/stream: {stream.status}")
    last = time.monotonic()
    for message in stream.messages():
        if "comment" not in message:
            last = time.monotonic()
            yield message["data"]
        elif time.monotonic() - last > NOTICE_WAIT:
            last = time.monotonic()
            yield None
    raise RuntimeError("the notice stream ended")


def _next_turn(notices: Iterator[dict[str, Any] | None], game_id: str) -> None:
    """Until something happens at the game that may be the seat's turn (or a while passes)."""
    for notice in notices:
        if notice is None or (notice["game_id"] == game_id and notice["kind"] in
                              ("your_turn", "game_ended", "timed_out")):  # fmt: skip
            return


def play_type(settings: Settings) -> dict[str, Any]:
    return TypeTournament(settings).run()


def ratings_of(url: str, played: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """game type -> each player's rating of it, once the ratings have taken all its games."""
    deadline = time.monotonic() + RATINGS_PATIENCE
    while True:
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        complete = True
        for result in played:
            kind = result["game_type"]
            for player in result["players"]:
                profile = _ok(requests.get(f"{url}/players/{player['id']}", timeout=30))
                rating = profile["ratings"].get(kind)
                complete &= rating is not None and rating["games"] >= player["games"]
                found[kind].append({**player, "rating": rating})
        if complete or time.monotonic() > deadline:
            return found
        time.sleep(1.0)


def report(found: dict[str, list[dict[str, Any]]], played: list[dict[str, Any]]) -> Figures:
    """Per game type: its games, waits to a match, failures, each level's mean displayed
    rating and whether strong > basic > random; and whether that holds in every game."""
    figures: Figures = {}
    for result in played:
        kind, players = result["game_type"], found[result["game_type"]]
        waits = sorted(w for p in players for w in p["waits"])
        means: dict[str, float | None] = {}
        for level in LEVELS:
            mine = [p["rating"]["display"] for p in players if p["level"] == level and p["rating"]]
            means[level] = round(sum(mine) / len(mine), 2) if mine else None
        values = [means[level] for level in LEVELS]
        ordered = all(a is not None and b is not None and a > b
                      for a, b in zip(values, values[1:], strict=False))  # fmt: skip
        figures[kind] = {
            "games": result["games"], "failures": result["failures"], "mean_display": means,
            "wait_p50_s": round(percentile(waits, 50), 1),
            "wait_p95_s": round(percentile(waits, 95), 1),
            "ordered": ordered and not result["failures"],
        }  # fmt: skip
    figures["levels_ordered_in_every_game"] = all(f["ordered"] for f in figures.values())
    return figures


def run(context: Context, s: Given) -> Figures:
    context.require_service()  # the players' ratings must start from nothing
    jobs = [Settings(context.url, kind, s["games"], s["per_level"], s["seed"], s["bot_ms"],
                     s["iterations"]) for kind in s["types"]]  # fmt: skip
    with multiprocessing.Pool(len(jobs)) as pool:
        played = []
        for result in pool.imap_unordered(play_type, jobs):
            played.append(result)
            print(f"{result['game_type']}: {result['games']} games played", file=sys.stderr)
    found = ratings_of(context.url, played)
    return report(found, sorted(played, key=lambda r: TYPES.index(r["game_type"])))


BENCHMARK = Benchmark(
    name="rating_levels",
    about="through the matchmaker, do the ratings order the bot levels?",
    run=run,
    needs_service=True,
    service_env={"MAX_STREAMS_PER_CLIENT": "0", "STREAM_HEARTBEAT_SECONDS": "1"},
    settings={"games": (30, 1), "per_level": 2, "bot_ms": (100, 20), "iterations": None,
        "seed": 1, "types": list(TYPES)},
    goals=[
        Goal("levels_ordered_in_every_game", "==", True, about="through the matchmaker, ratings "
            "order the bot levels (strong > basic > random) in every game"),
    ],
)  # fmt: skip
