"""Tables played through the API at a human pace, each acting about every `pace` s: a few
driver threads (one keep-alive session each) share the tables in heaps by due time; a game that
ends is replaced at once (`on_replace` hears of it), so the load holds however long the run.
Every POST is logged with its wall-clock time, for the bench to cut the run into phases. A probe
opens a new connection twice a second: keep-alive drivers would miss a server that stopped
accepting them.
"""

from __future__ import annotations

import heapq
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests

from bench.support.players import Api, PlayedTable, choose_action
from bench.support.stats import Counter, Progress, in_threads

POLL = 0.2  # s before asking again when nobody can act (a worker's step is under way)
PROBE_EVERY = 0.5
PROBE_TIMEOUT = 10.0
SEATS = 4


class BadAnswer(requests.RequestException):
    """A status a playing client cannot go on from (logged as a failure)."""


@dataclass
class Table(PlayedTable):
    due: float = 0.0  # time.monotonic() of its next action
    replaces: str | None = None  # the id of the game that ended and left it its place


@dataclass
class Timed:
    at: float  # time.time() when the request was sent
    seconds: float


@dataclass
class Failure:
    at: float
    what: str


@dataclass
class PlayLog:
    posts: list[Timed] = field(default_factory=list)  # 201s only
    probes: list[Timed] = field(default_factory=list)  # new-connection GETs
    failures: list[Failure] = field(default_factory=list)  # timeouts, errors, bad statuses
    rejected: int = 0  # 409/422: the game moved between the view and the POST
    replaced: int = 0  # games that ended and were replaced
    replacements: list[float] = field(default_factory=list)  # time.time() of each


def posts_between(log: PlayLog, start: float, end: float) -> list[float]:
    return [t.seconds for t in log.posts if start <= t.at < end]


def probes_between(log: PlayLog, start: float, end: float) -> list[float]:
    return [t.seconds for t in log.probes if start <= t.at < end]


def failures_between(log: PlayLog, start: float, end: float) -> list[Failure]:
    return [f for f in log.failures if start <= f.at < end]


class PacedPlay:
    def __init__(self, url: str, game_type: str, policy: str, pace: float, drivers: int,
                 seed: int) -> None:  # fmt: skip
        self.url = url
        self.game_type = game_type
        self.policy = policy
        self.pace = pace
        self.drivers = drivers
        self.seed = seed
        self.log = PlayLog()
        self.tables: list[Table] = []
        self.on_replace: Callable[[Table], None] | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def create_tables(self, count: int) -> list[Table]:
        api = Api(self.url, self.game_type)
        try:
            self.tables = [self._new_table(api, i) for i in range(count)]
        finally:
            api.close()
        return self.tables

    def _new_table(self, api: Api, index: int) -> Table:
        table = Table.create(api, random.Random(), SEATS, name="p")
        table.rng.seed(f"{self.seed}:{index}:{table.id}")
        return table

    def _shares(self) -> list[list[int]]:
        """The tables' indexes dealt round the drivers."""
        return [list(range(i, len(self.tables), self.drivers)) for i in range(self.drivers)]

    def spread(self, most: int) -> None:
        """Plays each table a random number (below `most`) of actions at once, or tables made
        together would end their rounds (and send their next deals) together."""
        rng = random.Random(f"{self.seed}:spread")
        targets = [rng.randrange(most) if most > 0 else 0 for _ in self.tables]
        done = Counter()

        def play(indexes: list[int]) -> None:
            api = Api(self.url, self.game_type)
            for index in indexes:
                for _ in range(targets[index]):
                    while not self._act(api, index, self.tables[index]):
                        time.sleep(POLL / 4)  # nobody can act yet (the next deal is coming)
                    done.add()
            api.close()

        def render(elapsed: float) -> str:
            return f"[spread] actions {done.value}/{sum(targets)}  {elapsed:.0f} s"

        with Progress(render):
            in_threads(play, [(share,) for share in self._shares()])

    def start(self) -> None:
        """Staggers the tables over one pace, so actions arrive evenly, not in waves."""
        now = time.monotonic()
        for i, table in enumerate(self.tables):
            table.due = now + self.pace * i / max(1, len(self.tables))
        self._threads = [
            threading.Thread(target=self._drive, args=(share,), name=f"driver-{n}", daemon=True)
            for n, share in enumerate(self._shares())
            if share
        ]
        self._threads.append(threading.Thread(target=self._probe, name="probe", daemon=True))
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)

    def _drive(self, indexes: list[int]) -> None:
        api = Api(self.url, self.game_type)
        heap = [(self.tables[i].due, i) for i in indexes]
        heapq.heapify(heap)
        try:
            while not self._stop.is_set():
                due, index = heap[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._stop.wait(min(wait, 0.5))
                    continue
                self._step(api, index)
                heapq.heapreplace(heap, (self.tables[index].due, index))
        finally:
            api.close()

    def _step(self, api: Api, index: int) -> None:
        """One action of the table (or a look, when nobody can act yet); it is due again one
        pace after the last, or now if it fell a whole pace behind."""
        table = self.tables[index]
        now = time.monotonic()
        try:
            acted = self._act(api, index, table)
        except requests.RequestException as error:
            self.log.failures.append(Failure(time.time(), f"{type(error).__name__}: {error}"))
            acted = True
        now_playing = self.tables[index]  # a new table, if this action ended the game
        if acted:
            now_playing.due = max(table.due + self.pace, now)
        else:
            now_playing.due = now + POLL

    def _act(self, api: Api, index: int, table: Table) -> bool:
        """False when the table could not act yet (nobody to act, or a stale view). A bad
        answer is logged, not raised (unlike players.take_turn): a long run counts them."""
        if table.finished:
            self._replace(api, index)
            return False
        seat = table.seat_to_act()
        if seat is None:
            table.state = self._get(api, f"/games/{table.id}", None)
            return False
        view = self._get(api, f"/games/{table.id}", table.tokens[seat])
        if not view["you"]["legal_actions"]:
            table.state = view
            return False
        action = choose_action(view, table.rng, self.policy)
        sent = time.time()
        response, seconds = api.call(
            "POST", f"/games/{table.id}/actions", table.tokens[seat], json=action
        )
        if response.status_code == 201:
            self.log.posts.append(Timed(sent, seconds))
            table.state = response.json()["game"]
            if table.finished:  # at once: its streams end now
                self._replace(api, index)
            return True
        if response.status_code in (409, 422):
            self.log.rejected += 1
            table.state = self._get(api, f"/games/{table.id}", None)
            return False
        self.log.failures.append(Failure(sent, f"POST {response.status_code}"))
        return True

    def _replace(self, api: Api, index: int) -> None:
        ended = self.tables[index].id
        self.tables[index] = self._new_table(api, index)
        self.tables[index].replaces = ended
        self.log.replaced += 1
        self.log.replacements.append(time.time())
        if self.on_replace is not None:
            self.on_replace(self.tables[index])

    def _get(self, api: Api, path: str, token: str | None) -> dict[str, Any]:
        response, _ = api.call("GET", path, token)
        if response.status_code != 200:
            raise BadAnswer(f"GET {path}: {response.status_code}")
        body: dict[str, Any] = response.json()
        return body

    def _probe(self) -> None:
        while not self._stop.wait(PROBE_EVERY):
            sent = time.time()
            started = time.perf_counter()
            try:
                response = requests.get(f"{self.url}/healthz", timeout=PROBE_TIMEOUT)
                if response.status_code == 200:
                    self.log.probes.append(Timed(sent, time.perf_counter() - started))
                else:
                    self.log.failures.append(Failure(sent, f"probe {response.status_code}"))
            except requests.RequestException as error:
                self.log.failures.append(Failure(sent, f"probe {type(error).__name__}"))
