"""Clients that play through a front door as well-behaved clients do when a node dies: a failed
request is sent again (a POST with its Idempotency-Key, so that it is applied once and answered
with its first answer), and a stream that drops opens again with Last-Event-ID."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests

from domain.kit.templates import action_from_template
from testing.sse import Stream

RETRIED = {502, 503}  # what a node's or Pushpin's death may answer
PATIENCE = 200  # attempts of one request before the test gives up on it
HUMANS = [{"kind": "human", "name": name} for name in ("Ann", "Bo", "Cy")]


@dataclass
class Tally:
    """Every request sent, and each that failed, by what it got."""

    sent: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, outcome: str | None) -> None:
        with self.lock:
            self.sent += 1
            if outcome is not None:
                self.failed[outcome] += 1

    @property
    def failures(self) -> int:
        return sum(self.failed.values())


def outcome_of(response: requests.Response) -> str | None:
    """None for an answer to keep; else what the failure was, e.g. '502 problem'."""
    if response.status_code < 500 and not in_progress(response):
        return None
    is_problem = response.headers.get("Content-Type") == "application/problem+json"
    return f"{response.status_code} {'problem' if is_problem else 'other'}"


def in_progress(response: requests.Response) -> bool:
    """The first attempt of this Idempotency-Key still runs (on a node that may be dying)."""
    return response.status_code == 409 and "request-in-progress" in response.text


def _reason(error: requests.RequestException) -> str:
    """The innermost cause, e.g. 'RemoteDisconnected', to tell a reset from a refusal."""
    cause: BaseException = error
    while cause.__context__ is not None and cause.__context__ is not cause:
        cause = cause.__context__
    return f"{type(cause).__name__}: {str(cause)[:60]}"


def send(tally: Tally, session: requests.Session, method: str, url: str, **kw: Any) -> Any:
    """The request, sent again after each failure until it is answered."""
    for _ in range(PATIENCE):
        try:
            response = session.request(method, url, timeout=10, **kw)
        except requests.RequestException as error:
            tally.count(f"connection {type(error).__name__} ({method} {_reason(error)})")
            time.sleep(0.2)
            continue
        outcome = outcome_of(response)
        tally.count(outcome)
        if outcome is None:
            return response
        time.sleep(min(1.0, float(response.headers.get("Retry-After", "0.2"))))
    raise AssertionError(f"{method} {url} never answered")


@dataclass
class Acknowledged:
    """An action the server said it applied: the events it answered with."""

    key: str
    versions: list[int]
    types: list[str]


class ResumingStream(threading.Thread):
    """One seat's event stream, opened again with Last-Event-ID whenever it drops, until it has
    `until` (set when the game ends or the test stops) or its game's stream ends."""

    def __init__(self, tally: Tally, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.tally, self.url, self.token = tally, url, token
        self.ids: list[int] = []
        self.until: int | None = None
        self.opens = 0

    def run(self) -> None:
        while not self.done():
            headers = {"Authorization": f"Bearer {self.token}"}
            if self.ids:
                headers["Last-Event-ID"] = str(self.ids[-1])
            try:
                self.read(Stream(self.url, headers=headers, timeout=5))
            except OSError:  # dropped (a reset, a timeout) or refused: open again
                self.tally.count("stream dropped")
            time.sleep(0.5)

    def read(self, stream: Stream) -> None:
        self.opens += 1
        if stream.status != 200:
            kind = stream.response.getheader("Content-Type") == "application/problem+json"
            self.tally.count(f"{stream.status} {'problem' if kind else 'other'}")
            stream.conn.close()
            time.sleep(min(1.0, float(stream.response.getheader("Retry-After") or 0.5)))
            return
        self.tally.count(None)
        for message in stream.messages():
            if "id" in message:
                self.ids.append(int(message["id"]))
            if self.done():
                break
        stream.conn.close()

    def done(self) -> bool:
        return self.until is not None and bool(self.ids) and self.ids[-1] >= self.until


class SteadyTable(threading.Thread):
    """Plays three-human games of trick_and_snipers one after the other, one action every
    `pace` seconds, each seat streamed, until told to stop; a finished game makes way for a new
    one."""

    def __init__(self, tally: Tally, url: str, seed: int, pace: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.tally, self.url, self.pace = tally, url, pace
        self.rng = random.Random(seed)
        self.session = requests.Session()
        self.stop = threading.Event()
        self.games: dict[str, list[Acknowledged]] = {}
        self.created_versions: dict[str, int] = {}
        self.streams: dict[str, list[ResumingStream]] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play_one()
        except BaseException as error:  # reported by the test
            self.error = error

    def play_one(self) -> None:
        body = {"type": "trick_and_snipers", "seats": HUMANS, "options": {}}
        created = send(self.tally, self.session, "POST", f"{self.url}/games", json=body).json()
        game, tokens = created["id"], [t["token"] for t in created["tokens"]]
        self.games[game], self.created_versions[game] = [], created["version"]
        stream_url = f"{self.url}/games/{game}/events/stream"
        self.streams[game] = [ResumingStream(self.tally, stream_url, t) for t in tokens]
        for stream in self.streams[game]:
            stream.start()
        state = created
        while state["status"] != "finished" and not self.stop.is_set():
            state = self.act(game, tokens[state["to_act"][0]])
            time.sleep(self.pace)
        for stream in self.streams[game]:
            stream.until = state["version"]

    def act(self, game: str, token: str) -> dict:
        auth = {"Authorization": f"Bearer {token}"}
        view = send(self.tally, self.session, "GET", f"{self.url}/games/{game}", headers=auth)
        template = self.rng.choice(view.json()["you"]["legal_actions"])
        key = uuid.uuid4().hex
        headers = {**auth, "Idempotency-Key": key}
        url = f"{self.url}/games/{game}/actions"
        action = action_from_template(template, self.rng)
        result = send(self.tally, self.session, "POST", url, json=action, headers=headers)
        assert result.status_code == 201, result.text
        answer = result.json()
        events = answer["events"]
        self.games[game].append(
            Acknowledged(key, [e["version"] for e in events], [e["type"] for e in events])
        )
        return answer["game"]


def event_log(url: str, game: str) -> list[dict]:
    """The whole public log of a game."""
    events: list[dict] = []
    while True:
        page = requests.get(
            f"{url}/games/{game}/events", params={"after": len(events), "limit": 1000}, timeout=10
        ).json()
        events += page["events"]
        if len(events) >= page["version"]:
            return events
