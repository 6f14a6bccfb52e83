"""The soak's tables: games of all four types kept in play through the public API, at a human
pace, some with four humans and some with one human and three bots (whose moves are jobs on
the RQ workers). Built on bench/support/paced_play.py's drivers (a few keep-alive sessions sharing
the tables, each table due about every `pace` s); what differs is here:

- a table is of any game type, with bots or not, and its client acts the way README.md's
  walkthrough does: its seat's view, a move built from one of `you.legal_actions`, sent with
  the version it saw (`expected_version`) and a fresh Idempotency-Key;
- a client acts only for its human seats; while only bots (or the worker's deal) are due it
  looks again every `poll` s, with If-None-Match (a 304 while nothing moved);
- every answer is tallied by status, and each new table queues the paths of its event streams
  (its human seats' and `spectators` more) for the stream reader.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from typing import Any

import requests

from bench.support.paced_play import BadAnswer, Failure, PacedPlay, Table, Timed
from bench.support.players import Api
from domain.kit.templates import action_from_template

GAME_TYPES = ("trick_and_snipers", "st_patrick", "ouroboros_trick", "saint_poker")
SEATS = 4
STALE = (409, 422)  # the game moved between the view and the POST: expected, not an error


class Tally:
    """Every answer's status, and every request that got none (by exception)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.exceptions: Counter[str] = Counter()

    def status(self, code: int) -> None:
        with self._lock:
            self.statuses[code] += 1

    def exception(self, name: str) -> None:
        with self._lock:
            self.exceptions[name] += 1

    def errors(self) -> int:
        """Answers >= 400 other than a stale view, and requests with no answer."""
        with self._lock:
            bad = sum(n for code, n in self.statuses.items() if code >= 400 and code not in STALE)
            return bad + sum(self.exceptions.values())


class SoakPlay(PacedPlay):
    def __init__(self, url: str, pace: float, drivers: int, seed: int, bot_share: float,
                 bot_levels: list[str], spectators: int, poll: float) -> None:  # fmt: skip
        super().__init__(url, "mixed", "first", pace, drivers, seed)
        self.bot_share = bot_share
        self.bot_levels = bot_levels
        self.spectators = spectators
        self.poll = poll
        self.tally = Tally()
        self.created: Counter[str] = Counter()  # games created, by "type/humans|bots"
        self._streams: list[str] = []  # paths not yet handed to the reader
        self._streams_lock = threading.Lock()
        self._serial = 0

    # --- tables ----------------------------------------------------------------------------

    def _new_table(self, api: Api, index: int) -> Table:
        with self._streams_lock:
            self._serial += 1
            serial = self._serial
        rng = random.Random(f"{self.seed}:{index}:{serial}")
        game_type = GAME_TYPES[serial % len(GAME_TYPES)]
        with_bots = rng.random() < self.bot_share
        seats = [{"kind": "human", "name": "p0"}] + [
            {"kind": "bot", "level": rng.choice(self.bot_levels)}
            if with_bots
            else {"kind": "human", "name": f"p{i}"}
            for i in range(1, SEATS)
        ]
        response = self._call(api, "POST", "/games", None, json={"type": game_type, "seats": seats},
                              headers={"Idempotency-Key": str(uuid.uuid4())})  # fmt: skip
        if response.status_code != 201:
            raise BadAnswer(f"POST /games: {response.status_code}")
        game = response.json()
        tokens = {t["seat"]: t["token"] for t in game["tokens"]}
        self.created[f"{game_type}/{'bots' if with_bots else 'humans'}"] += 1
        table = Table(game["id"], tokens, game, rng)
        self._queue_streams(table)
        return table

    def _queue_streams(self, table: Table) -> None:
        base = f"/games/{table.id}/events/stream?after={table.state['version']}"
        paths = [f"{base}&access_token={token}" for token in table.tokens.values()]
        paths += [base] * self.spectators
        with self._streams_lock:
            self._streams += paths

    def take_streams(self) -> list[str]:
        """The stream paths of the tables created since the last call."""
        with self._streams_lock:
            paths, self._streams = self._streams, []
        return paths

    # --- playing ---------------------------------------------------------------------------

    def _step(self, api: Api, index: int) -> None:
        """One action (or look) of the table; its next due time is a human-ish pause later
        (half to one and a half paces), or `poll` s when it could not act."""
        now = time.monotonic()
        try:
            acted = self._act(api, index, self.tables[index])
        except requests.RequestException as error:
            if not isinstance(error, BadAnswer):  # a bad answer's status is tallied already
                self.tally.exception(type(error).__name__)
            self.log.failures.append(Failure(time.time(), f"{type(error).__name__}: {error}"))
            acted = True
        table = self.tables[index]  # a new one if the game ended
        if acted:
            table.due = max(table.due + self.pace * table.rng.uniform(0.5, 1.5), now)
        else:
            table.due = now + self.poll

    def _act(self, api: Api, index: int, table: Table) -> bool:
        """False when the table could not act yet (only bots due, or a stale view)."""
        state = table.state
        if state["status"] == "finished":
            self.tables[index] = self._new_table(api, index)
            self.log.replaced += 1
            return False
        mine = [seat for seat in state["to_act"] if seat in table.tokens]
        if not mine:  # bots or the worker are due: look again, cheaply while nothing moved
            table.state = self._look(api, table)
            return False
        seat = table.rng.choice(mine)
        view = self._get(api, f"/games/{table.id}", table.tokens[seat])
        templates = view["you"]["legal_actions"]
        if not templates:
            table.state = view
            return False
        body = action_from_template(table.rng.choice(templates), table.rng)
        body["expected_version"] = view["version"]
        sent = time.time()
        started = time.perf_counter()
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        path = f"/games/{table.id}/actions"
        response = self._call(api, "POST", path, table.tokens[seat], json=body, headers=headers)
        seconds = time.perf_counter() - started
        if response.status_code == 201:
            self.log.posts.append(Timed(sent, seconds))
            table.state = response.json()["game"]
            return True
        if response.status_code in STALE:
            self.log.rejected += 1
            table.state = self._get(api, f"/games/{table.id}", None)
            return False
        self.log.failures.append(Failure(sent, f"POST {response.status_code}"))
        return True

    def _look(self, api: Api, table: Table) -> dict[str, Any]:
        etag = f'"{table.state["version"]}"'
        response = self._call(api, "GET", f"/games/{table.id}", None,
                              headers={"If-None-Match": etag})  # fmt: skip
        if response.status_code == 304:
            return table.state
        if response.status_code != 200:
            raise BadAnswer(f"GET /games/{table.id}: {response.status_code}")
        body: dict[str, Any] = response.json()
        return body

    def _get(self, api: Api, path: str, token: str | None) -> dict[str, Any]:
        response = self._call(api, "GET", path, token)
        if response.status_code != 200:
            raise BadAnswer(f"GET {path}: {response.status_code}")
        body: dict[str, Any] = response.json()
        return body

    def _call(self, api: Api, method: str, path: str, token: str | None,
              **kwargs: Any) -> requests.Response:  # fmt: skip
        response, _ = api.call(method, path, token, **kwargs)
        self.tally.status(response.status_code)
        return response
