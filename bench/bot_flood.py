"""A flood of bot work from one address, at its quotas, while another client plays: how long
does the other client wait for its bots?

    .venv/bin/python -m bench.bot_flood --start                 # a service as make run starts it
    .venv/bin/python -m bench.bot_flood --start --seconds 120 --quiet-seconds 60

The service runs with its rate limits on, at their defaults, and one worker process. The other
client (127.0.0.1) plays Trick & Snipers against three basic bots, a random legal card each
turn; its *bot response* is the time from its action's answer until the game waits for it again
(or ends): its bots' moves, one after the other, on the workers. First it plays alone
(--quiet-seconds), then while the flooder (127.0.0.2) does all of this at once (--seconds):

- asks for a five-seat table of strong bots every 2 s (the bot-table quota: 30 a minute);
- keeps --scripted tables going, each of one scripted human and four strong bots, the human
  acting the moment it may (tables a human waits for, like a real player's);
- asks every 2 s for a table with one human who leaves at once (a table left to its bots this
  soon counts against the bot-table quota: refused once it is spent).

Goal: the other client's bot response p95 <= 1.5 s during the flood.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from bench.stats import ms, percentile

GOAL_P95_SECONDS = 1.5
FLOODER, PLAYER = "127.0.0.2", "127.0.0.1"
POLL = 0.02
GAME = "trick_and_snipers"
STRONG = {"kind": "bot", "level": "strong"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--start", action="store_true", help="start a service (as make run)")
    p.add_argument("--url", default="http://127.0.0.1:8000", help="a running service")
    p.add_argument("--seconds", type=float, default=120.0, help="the flood phase")
    p.add_argument("--quiet-seconds", type=float, default=45.0, help="the phase before it")
    p.add_argument("--scripted", type=int, default=12, help="scripted-human tables at once")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the figures to this file too")
    return p.parse_args(argv)


class Client:
    """JSON over one keep-alive connection from a given source address."""

    def __init__(self, url: str, source: str) -> None:
        parts = urlsplit(url)
        self._address = (parts.hostname, parts.port)
        self._source = source
        self._conn = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        host, port = self._address
        return http.client.HTTPConnection(host, port, timeout=30, source_address=(self._source, 0))

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
        for attempt in range(2):
            try:
                self._conn.request(method, path, body=data, headers=headers)
                response = self._conn.getresponse()
                return response.status, json.loads(response.read() or b"null")
            except (OSError, http.client.HTTPException):
                self._conn.close()
                self._conn = self._connect()
                if attempt:
                    raise
        raise AssertionError("unreachable")


def first_action(game: dict, rng: random.Random) -> dict:
    from domain.kit.templates import action_from_template

    return action_from_template(rng.choice(game["you"]["legal_actions"]), rng)


class Player:
    """The other client: plays its table, timing each bot response."""

    def __init__(self, url: str, seed: int) -> None:
        self.client = Client(url, PLAYER)
        self.rng = random.Random(seed)
        self.responses: list[float] = []
        self.game: str | None = None
        self.token = ""

    def new_table(self) -> None:
        seats = [{"kind": "human", "name": "player"}, *[{"kind": "bot", "level": "basic"}] * 3]
        status, body = self.client.call("POST", "/games", {"type": GAME, "seats": seats})
        assert status == 201, body
        self.game, self.token = body["id"], body["tokens"][0]["token"]

    def play_for(self, seconds: float, responses: list[float]) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.game is None:
                self.new_table()
            game = self._until_my_turn(deadline)
            if game is None:
                continue
            status, body = self.client.call(
                "POST", f"/games/{self.game}/actions", first_action(game, self.rng), self.token
            )
            assert status == 201, body
            acted = time.monotonic()
            if self._until_my_turn(deadline + 30) is not None or self.game is None:
                responses.append(time.monotonic() - acted)

    def _until_my_turn(self, deadline: float) -> dict | None:
        """The game once it waits for this client (None: it ended, or time ran out)."""
        while time.monotonic() < deadline:
            _, game = self.client.call("GET", f"/games/{self.game}", token=self.token)
            if game["status"] == "finished":
                self.game = None
                return None
            if game["you"]["legal_actions"]:
                return game
            time.sleep(POLL)
        return None


class Flooder:
    """One address, at its quotas, for as long as it runs."""

    def __init__(self, url: str, scripted: int, seed: int) -> None:
        self.url = url
        self.statuses: Counter[str] = Counter()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._bot_tables, daemon=True)]
        self.threads += [threading.Thread(target=self._left_at_once, daemon=True)]
        self.threads += [
            threading.Thread(target=self._scripted, args=(seed + i,), daemon=True)
            for i in range(scripted)
        ]

    def count(self, what: str, status: int) -> None:
        with self.lock:
            self.statuses[f"{what} {status}"] += 1

    def __enter__(self) -> Flooder:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=40)

    def _bot_tables(self) -> None:
        client = Client(self.url, FLOODER)
        while not self.stop.wait(2.0):
            status, _ = client.call("POST", "/games", {"type": GAME, "seats": [STRONG] * 5})
            self.count("bot table", status)

    def _left_at_once(self) -> None:
        client = Client(self.url, FLOODER)
        seats = [{"kind": "human", "name": "gone"}, *[STRONG] * 4]
        while not self.stop.wait(2.0):
            status, body = client.call("POST", "/games", {"type": GAME, "seats": seats})
            if status != 201:
                self.count("one-human table", status)
                continue
            token = body["tokens"][0]["token"]
            status, _ = client.call("POST", f"/games/{body['id']}/seats/0/leave", {}, token)
            self.count("left at once", status)

    def _scripted(self, seed: int) -> None:
        client, rng = Client(self.url, FLOODER), random.Random(seed)
        seats = [{"kind": "human", "name": "script"}, *[STRONG] * 4]
        while not self.stop.is_set():
            status, body = client.call("POST", "/games", {"type": GAME, "seats": seats})
            self.count("scripted table", status)
            if status != 201:
                self.stop.wait(1.0)
                continue
            game, token = body["id"], body["tokens"][0]["token"]
            while not self.stop.is_set():
                _, state = client.call("GET", f"/games/{game}", token=token)
                if state["status"] == "finished":
                    break
                if state["you"]["legal_actions"]:
                    status, _ = client.call(
                        "POST", f"/games/{game}/actions", first_action(state, rng), token
                    )
                    self.count("scripted action", status)
                else:
                    self.stop.wait(POLL)


def summary(name: str, responses: list[float]) -> dict:
    return {
        f"{name}_responses": len(responses),
        f"{name}_response_p50_ms": ms(statistics.median(responses)) if responses else 0.0,
        f"{name}_response_p95_ms": ms(percentile(responses, 95)) if responses else 0.0,
        f"{name}_response_max_ms": ms(max(responses)) if responses else 0.0,
    }


def run(args: argparse.Namespace, url: str) -> dict:
    player = Player(url, args.seed)
    quiet: list[float] = []
    print(f"quiet phase: {args.quiet_seconds:g} s", file=sys.stderr, flush=True)
    player.play_for(args.quiet_seconds, quiet)
    flooded: list[float] = []
    print(f"flood phase: {args.seconds:g} s", file=sys.stderr, flush=True)
    started = time.monotonic()
    with Flooder(url, args.scripted, args.seed) as flood:
        progress = threading.Thread(target=_progress, args=(flood, flooded, started), daemon=True)
        progress.start()
        player.play_for(args.seconds, flooded)
    figures = summary("quiet", quiet) | summary("flood", flooded)
    figures |= {f"flooder {what}": n for what, n in sorted(flood.statuses.items())}
    return figures


def _progress(flood: Flooder, responses: list[float], started: float) -> None:
    while not flood.stop.wait(10.0):
        done = sum(flood.statuses.values())
        print(f"  {time.monotonic() - started:5.0f} s: {len(responses)} bot responses,"
              f" {done} flood requests", file=sys.stderr, flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.start:
        from bench.service import started_service

        with started_service({"RATE_LIMITS": "on"}) as service:
            figures = run(args, service.url)
    else:
        figures = run(args, args.url)
    for name, value in figures.items():
        print(f"{name:36} {value:.1f}" if isinstance(value, float) else f"{name:36} {value}")
    p95 = figures["flood_response_p95_ms"] / 1000
    ok = figures["flood_responses"] > 0 and p95 <= GOAL_P95_SECONDS
    print(f"goal: the other client's bot response p95 <= {GOAL_P95_SECONDS} s during the flood:"
          f" {p95:.2f} s, {'PASS' if ok else 'FAIL'}")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
