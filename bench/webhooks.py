"""Webhook deliveries against a started service (`make run`'s processes) and a real receiver on
127.0.0.1 that verifies every signature with `standardwebhooks`.

- `latency`: 20 players with 5 webhooks each (100 endpoints) are invited to tables round after
  round; each delivery's time from its notice's commit (the notice's `at`) to the receiver.
  Goal: p95 < 500 ms.
- `outage`: a player's receiver goes down for two minutes while notices keep coming, then comes
  back on the same port. Goal: every notice arrives (at least once), first arrivals in order.

    .venv/bin/python -m bench.webhooks latency --start
    .venv/bin/python -m bench.webhooks outage --start [--down-seconds 120]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from bench.service import started_service
from bench.stats import percentile

GOAL_P95_SECONDS = 0.5
INVITED = ["invited"]


class Receiver:
    """A threaded HTTP server on 127.0.0.1: each path is one endpoint, with its own secret.
    Stopping it closes the port (connections are refused); starting it reopens the same one."""

    def __init__(self, port: int = 0) -> None:
        self.secrets: dict[str, Webhook] = {}
        self.arrivals: list[tuple[str, str, dict, float]] = []  # path, webhook-id, notice, when
        self.bad_signatures = 0
        self.port = port
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def start(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def take(self, path: str, headers: dict[str, str], body: bytes) -> int:
        now = time.time()
        webhook = self.secrets.get(path)
        try:
            notice = webhook.verify(body, headers) if webhook else None
        except WebhookVerificationError:
            notice = None
        with self._lock:
            if notice is None:
                self.bad_signatures += 1
                return 401
            self.arrivals.append((path, headers["webhook-id"], notice, now))
        return 204

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                self.send_response(receiver.take(self.path, headers, body))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler


class Client:
    def __init__(self, url: str) -> None:
        self.url = url
        self.session = requests.Session()

    def post(self, path: str, body: dict, key: str | None = None) -> dict:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        response = self.session.post(self.url + path, json=body, headers=headers, timeout=30)
        if response.status_code != 201:
            raise SystemExit(f"POST {path}: {response.status_code} {response.text[:300]}")
        return response.json()

    def player(self, name: str) -> dict:
        return self.post("/players", {"name": name})

    def webhook(self, key: str, url: str) -> str:
        return self.post("/me/webhooks", {"url": url, "events": INVITED}, key)["secret"]

    def invite(self, host_key: str, guest_id: str) -> str:
        seats = [{"kind": "human", "player": "me"}, {"kind": "open", "player": guest_id},
                 {"kind": "bot", "level": "random"}]  # fmt: skip
        return self.post("/games", {"type": "trick_and_snipers", "seats": seats}, host_key)["id"]


def wait_until(check, within: float, what: str) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    print(f"timed out waiting for {what}", file=sys.stderr)
    return False


def latency(url: str, players: int, per_player: int, rounds: int) -> bool:
    client, receiver = Client(url), Receiver()
    receiver.start()
    host = client.player("Host")
    guests = [client.player(f"Guest {i}") for i in range(players)]
    for g, guest in enumerate(guests):
        for w in range(per_player):
            path = f"/hook/{g}/{w}"
            receiver.secrets[path] = Webhook(client.webhook(guest["key"], receiver.url(path)))
    endpoints = players * per_player
    print(f"{endpoints} endpoints ({players} players x {per_player}); {rounds} rounds of "
          f"{players} invitations ({endpoints} deliveries a round)", file=sys.stderr)  # fmt: skip
    for _ in range(rounds):
        for guest in guests:
            client.invite(host["key"], guest["id"])
        time.sleep(0.5)
    expected = endpoints * rounds
    wait_until(lambda: len(receiver.arrivals) >= expected, 120, "every delivery")
    receiver.stop()
    lags = [when - datetime.fromisoformat(notice["at"]).timestamp()
            for _, _, notice, when in receiver.arrivals]  # fmt: skip
    unique = len({(path, wid) for path, wid, _, _ in receiver.arrivals})
    p50, p95 = percentile(lags, 50), percentile(lags, 95)
    print(f"deliveries            {len(receiver.arrivals)} of {expected} ({unique} distinct)")
    print(f"bad_signatures        {receiver.bad_signatures}")
    print(f"commit_to_receiver_p50_ms  {p50 * 1000:.1f}")
    print(f"commit_to_receiver_p95_ms  {p95 * 1000:.1f}")
    print(f"commit_to_receiver_max_ms  {max(lags) * 1000:.1f}")
    ok = unique == expected and receiver.bad_signatures == 0 and p95 < GOAL_P95_SECONDS
    print(f"goal: p95 < {GOAL_P95_SECONDS * 1000:.0f} ms with {endpoints} endpoints, all "
          f"delivered: {'PASS' if ok else 'FAIL'}")  # fmt: skip
    return ok


def outage(url: str, down_seconds: float, every: float) -> bool:
    client, receiver = Client(url), Receiver()
    receiver.start()
    host, guest = client.player("Host"), client.player("Guest")
    receiver.secrets["/hook"] = Webhook(client.webhook(guest["key"], receiver.url("/hook")))
    sent = 0

    def invite() -> None:
        nonlocal sent
        client.invite(host["key"], guest["id"])
        sent += 1

    for _ in range(5):
        invite()
    wait_until(lambda: len(receiver.arrivals) >= 5, 30, "the first deliveries")
    print(f"receiver down for {down_seconds:.0f} s, an invitation every {every:.0f} s",
          file=sys.stderr)  # fmt: skip
    receiver.stop()
    down_at = time.monotonic()
    while time.monotonic() - down_at < down_seconds:
        invite()
        time.sleep(every)
    receiver.start()  # the same port
    back_at = time.monotonic()
    print(f"receiver back after {back_at - down_at:.0f} s; {sent} notices sent in all",
          file=sys.stderr)  # fmt: skip
    ids = lambda: {notice["id"] for _, _, notice, _ in receiver.arrivals}  # noqa: E731
    wait_until(lambda: ids() >= set(range(1, sent + 1)), 600, "every notice")
    receiver.stop()
    got = ids()
    first_order = list(dict.fromkeys(notice["id"] for _, _, notice, _ in receiver.arrivals))
    in_order = first_order == sorted(first_order)
    missing = sorted(set(range(1, sent + 1)) - got)
    print(f"notices_sent          {sent}")
    print(f"notices_received      {len(got)} (arrivals {len(receiver.arrivals)})")
    print(f"missing               {missing}")
    print(f"first_arrivals_in_order  {in_order}")
    print(f"bad_signatures        {receiver.bad_signatures}")
    print(f"all_in_after_back_s   {time.monotonic() - back_at:.1f}")
    ok = not missing and in_order and receiver.bad_signatures == 0
    print(f"goal: a receiver down {down_seconds:.0f} s gets every notice, none lost: "
          f"{'PASS' if ok else 'FAIL'}")  # fmt: skip
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scenario", choices=["latency", "outage"])
    p.add_argument("--start", action="store_true", help="start a service (else --url)")
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--players", type=int, default=20)
    p.add_argument("--webhooks-per-player", type=int, default=5)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--down-seconds", type=float, default=120.0)
    p.add_argument("--every", type=float, default=2.0, help="seconds between notices (outage)")
    args = p.parse_args(argv)

    def run(url: str) -> bool:
        if args.scenario == "latency":
            return latency(url, args.players, args.webhooks_per_player, args.rounds)
        return outage(url, args.down_seconds, args.every)

    if not args.start:
        return 0 if run(args.url) else 1
    # The receiver is on 127.0.0.1: the started service must allow it (as `make run` does).
    with started_service({"WEBHOOKS_ALLOW_PRIVATE": "1"}) as service:
        return 0 if run(service.url) else 1


if __name__ == "__main__":
    sys.exit(main())
