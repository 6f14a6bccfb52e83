"""Do the ratings order the bot levels, through the matchmaker? Per game type, `per_level`
players of each level (`strong`, `basic`, `random`) queue for rated tables of 3 (`POST /me/queue`)
and the matcher alone seats them, by rating window (docs/players.md): two of a level give it
company near its rating, so tables still form once the levels' ratings lie far apart. Each plays
its seat client-side with its level's bot on its `/me/stream` notices, and queues again until
its type has had `games` games (a process per type, a thread per player). A level's figure is
its players' mean displayed rating (mu - 3 sigma, from their profiles): strong > basic > random?
`bot_ms` is the strong bot's time per decision (the workers' BOT_BUDGET_MS); `iterations` K gives
it Iterations(K) instead, the same work whatever the machine's load."""

from __future__ import annotations

import multiprocessing
import random
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bench.bot_strength.games import LEVELS, descending
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api, expect
from bench.support.stats import in_threads, percentile
from domain.games import GAME_TYPES
from domain.kit.budget import Budget, Deadline, Iterations
from testing.sse import Stream

TYPES = ("trick_and_snipers", "ouroboros_trick", "saint_poker", "st_patrick")
TABLE_SIZE = 3
NOTICE_WAIT = 2.0  # seconds without a notice before a player reads its game anyway
RATINGS_PATIENCE = 120.0
WAKE = ("your_turn", "game_ended", "timed_out")  # the notices that may be a seat's turn
Notices = Iterator[dict[str, Any] | None]


@dataclass
class Player:
    id: str
    key: str
    name: str
    level: str
    games: int = 0  # finished
    waits: list[float] = field(default_factory=list)  # seconds from each join to its match
    rating: dict[str, Any] | None = None  # its profile's, of the type, once it took its games


class TypeTournament:
    """One game type's players, each a thread that queues, plays and queues again."""

    def __init__(self, url: str, game_type: str, s: Settings) -> None:
        self.url = url
        self.game_type = game_type
        self.s = s
        self.games: int = s["games"]  # started, before the players stop queueing
        self.lock = threading.Lock()
        self.started_games: set[str] = set()
        self.finished_games: set[str] = set()
        self.failures: list[str] = []

    def run(self) -> tuple[str, Figures]:
        """The type and its figures: games, failures, each level's mean displayed rating,
        waits to a match, and whether strong > basic > random."""
        api = Api(self.url)
        players = []
        for index in range(self.s["per_level"]):
            for level in LEVELS:
                name = f"{level}-{self.game_type}-{index + 1}"
                made = api.json("POST", "/players", json={"name": name})
                players.append(Player(made["id"], made["key"], name, level))
        in_threads(self._guarded, [(p,) for p in players])
        self._read_ratings(api, players)
        means: dict[str, float | None] = {}
        for level in LEVELS:
            mine = [p.rating["display"] for p in players if p.level == level and p.rating]
            means[level] = round(sum(mine) / len(mine), 2) if mine else None
        waits = [wait for p in players for wait in p.waits]
        return self.game_type, {
            "games": len(self.finished_games),
            "failures": self.failures,
            "mean_display": means,
            "wait_p50_s": round(percentile(waits, 50), 1),
            "wait_p95_s": round(percentile(waits, 95), 1),
            "ordered": descending(list(means.values())) and not self.failures,
        }

    def _read_ratings(self, api: Api, players: list[Player]) -> None:
        """Each player's rating of the type, once the ratings have taken all its games."""
        deadline = time.monotonic() + RATINGS_PATIENCE
        while True:
            for player in players:
                profile = api.json("GET", f"/players/{player.id}")
                player.rating = profile["ratings"].get(self.game_type)
            rated = all(p.rating is not None and p.rating["games"] >= p.games for p in players)
            if rated or time.monotonic() > deadline:
                return
            time.sleep(1.0)

    def _more_wanted(self) -> bool:
        with self.lock:
            return len(self.started_games) < self.games

    def _guarded(self, player: Player) -> None:
        try:
            self._play(player)
        except Exception as error:  # noqa: BLE001 - reported, and the others play on
            with self.lock:
                self.failures.append(f"{player.name}: {type(error).__name__}: {error}")

    def _play(self, player: Player) -> None:
        """Queue, play the table the matcher gives, queue again; until enough games."""
        api = Api(self.url)
        ask = {"type": self.game_type, "players": [TABLE_SIZE], "rated": True}
        notices = _notices(self.url, player.key)
        while self._more_wanted():
            joined = time.monotonic()
            api.json("POST", "/me/queue", player.key, json=ask)
            seated = self._matched(api, player.key, notices)
            if seated is None:
                return  # enough games: it left the queue
            game_id, seat = seated
            player.waits.append(time.monotonic() - joined)
            with self.lock:
                self.started_games.add(game_id)
            rng = random.Random(f"{self.s['seed']}/{player.name}/{game_id}")
            while not self._act(api, player, game_id, seat, rng):
                for notice in notices:  # until one that may be its turn, or a while passes
                    if notice is None or (notice["game_id"] == game_id and notice["kind"] in WAKE):
                        break
            player.games += 1
            with self.lock:
                self.finished_games.add(game_id)

    def _matched(self, api: Api, key: str, notices: Notices) -> tuple[str, int] | None:
        """The game and seat of the player's `match_found`; None once enough games have
        started and the player has left the queue instead."""
        for notice in notices:
            if notice is not None and notice["kind"] == "match_found":
                return notice["game_id"], notice["seat"]
            if notice is None and not self._more_wanted():
                left, _ = api.call("DELETE", "/me/queue", key)
                if left.status_code != 409:  # 409: seated meanwhile; its notice is coming
                    expect(left, 204)
                    return None
        raise RuntimeError("the notice stream ended")

    def _act(self, api: Api, player: Player, game_id: str, seat: int, rng: random.Random) -> bool:
        """Acts for as long as the game waits for the seat; whether the game is over."""
        bot = GAME_TYPES[self.game_type].bots[player.level]
        while True:
            view = api.json("GET", f"/games/{game_id}", player.key)
            if view["status"] == "finished":
                return True
            if seat not in view["to_act"] or not view["you"]["legal_actions"]:
                return False
            action = {**bot(view, rng, self._budget()), "expected_version": view["version"]}
            answer, _ = api.call("POST", f"/games/{game_id}/actions", player.key, json=action)
            if answer.status_code != 409:  # a conflict: read again and decide anew
                expect(answer, 201)

    def _budget(self) -> Budget:
        if self.s["iterations"] is not None:
            return Iterations(self.s["iterations"])
        return Deadline(time.monotonic, self.s["bot_ms"] / 1000)


def _notices(url: str, key: str) -> Notices:
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


def play_type(job: tuple[str, str, Settings]) -> tuple[str, Figures]:
    return TypeTournament(*job).run()


def run(context: Context, s: Settings) -> Figures:
    context.require_service()  # the players' ratings must start from nothing
    figures: Figures = {}
    with multiprocessing.Pool(len(s["types"])) as pool:
        for kind, played in pool.imap_unordered(
            play_type, [(context.url, t, s) for t in s["types"]]
        ):
            figures[kind] = played
            print(f"{kind}: {played['games']} games played", file=sys.stderr)
    figures = dict(sorted(figures.items(), key=lambda item: TYPES.index(item[0])))
    return figures | {"levels_ordered_in_every_game": all(f["ordered"] for f in figures.values())}


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
