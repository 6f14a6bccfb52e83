"""Webhook deliveries from a started service to a real receiver on 127.0.0.1 that verifies
every signature (`standardwebhooks`): their latency from the notice's commit, many endpoints at
once; and a receiver down for `down_seconds` under steady notices, then back on its port, must
get every one. Their order after it is a figure, not a goal: a retried delivery lets later ones
pass it (docs/players.md)."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.players import Api
from bench.support.stats import ms_percentiles, wait_until


class Receiver:
    """A threaded HTTP server on 127.0.0.1, a path per endpoint, each with its own secret.
    Stopping it closes the port (connections are refused); starting it reopens the same one."""

    def __init__(self) -> None:
        self.secrets: dict[str, Webhook] = {}
        self.arrivals: list[tuple[str, str, dict[str, Any], float]] = []  # path, id, notice, at
        self.bad_signatures, self.port = 0, 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(receiver.take(self.path, dict(self.headers.items()), body))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def take(self, path: str, headers: dict[str, str], body: bytes) -> int:
        now, headers = time.time(), {k.lower(): v for k, v in headers.items()}
        try:
            notice = self.secrets[path].verify(body, headers) if path in self.secrets else None
        except WebhookVerificationError:
            notice = None
        with self._lock:
            if notice is None:
                self.bad_signatures += 1
                return 401
            self.arrivals.append((path, headers["webhook-id"], notice, now))
        return 204

    def hook(self, api: Api, key: str, path: str) -> None:
        url = f"http://127.0.0.1:{self.port}{path}"
        body = {"url": url, "events": ["invited"]}
        self.secrets[path] = Webhook(api.json("POST", "/me/webhooks", key, json=body)["secret"])


def invite(api: Api, host_key: str, guest_id: str) -> None:
    seats = [{"kind": "human", "player": "me"}, {"kind": "open", "player": guest_id},
             {"kind": "bot", "level": "random"}]  # fmt: skip
    api.json("POST", "/games", host_key, json={"type": "trick_and_snipers", "seats": seats})


def latency(api: Api, s: Settings) -> Figures:
    receiver, host = Receiver(), api.json("POST", "/players", json={"name": "Host"})
    receiver.start()
    guests = [api.json("POST", "/players", json={"name": f"G{i}"}) for i in range(s["players"])]
    for g, guest in enumerate(guests):
        for w in range(s["per_player"]):
            receiver.hook(api, guest["key"], f"/hook/{g}/{w}")
    for _ in range(s["rounds"]):
        for guest in guests:
            invite(api, host["key"], guest["id"])
        time.sleep(0.5)
    expected = len(receiver.secrets) * s["rounds"]
    wait_until(lambda: len(receiver.arrivals) >= expected, 120,
               waiting=lambda: f"[webhooks] {len(receiver.arrivals)}/{expected} in")  # fmt: skip
    receiver.stop()
    lags = [at - datetime.fromisoformat(notice["at"]).timestamp()
            for _, _, notice, at in receiver.arrivals]  # fmt: skip
    return {
        "endpoints": len(receiver.secrets),
        "missing_deliveries": expected - len({(p, i) for p, i, _, _ in receiver.arrivals}),
        "latency_bad_signatures": receiver.bad_signatures,
        **ms_percentiles("commit_to_receiver", lags, 50, 95),
    }


def outage(api: Api, s: Settings) -> Figures:
    receiver = Receiver()
    receiver.start()
    host, guest = (api.json("POST", "/players", json={"name": n}) for n in ("Host", "Guest"))
    receiver.hook(api, guest["key"], "/hook")

    def ids() -> set[int]:
        return {notice["id"] for _, _, notice, _ in receiver.arrivals}

    for _ in range(5):
        invite(api, host["key"], guest["id"])
    wait_until(lambda: len(receiver.arrivals) >= 5, 30, waiting=lambda: "[webhooks] the first 5")
    receiver.stop()
    sent, down_at = 5, time.monotonic()
    print(f"[webhooks] outage: the receiver is down for {s['down_seconds']:.0f} s", flush=True)
    while time.monotonic() - down_at < s["down_seconds"]:
        invite(api, host["key"], guest["id"])
        sent += 1
        time.sleep(s["every"])
    receiver.start()  # the same port
    back_at = time.monotonic()
    wait_until(lambda: ids() >= set(range(1, sent + 1)), 600,
               waiting=lambda: f"[webhooks] back, {len(ids())}/{sent} in")  # fmt: skip
    receiver.stop()
    first = list(dict.fromkeys(notice["id"] for _, _, notice, _ in receiver.arrivals))
    return {
        "outage_notices_sent": sent,
        "outage_missing": len(set(range(1, sent + 1)) - ids()),
        "outage_in_order": first == sorted(first),
        "outage_bad_signatures": receiver.bad_signatures,
        "outage_all_in_after_back_s": round(time.monotonic() - back_at, 1),
    }


def run(context: Context, s: Settings) -> Figures:
    api = Api(context.url)
    return latency(api, s) | outage(api, s)


BENCHMARK = Benchmark(
    name="webhooks",
    about="webhook deliveries to a local receiver, and a receiver down for a while",
    run=run,
    needs_service=True,
    service_env={"WEBHOOKS_ALLOW_PRIVATE": "1"},
    settings={"players": (20, 2), "per_player": (5, 2), "rounds": (10, 1),
        "down_seconds": (120.0, 3.0), "every": (2.0, 1.0)},
    goals=[
        Goal("commit_to_receiver_p95_ms", "<", 500, "ms", "webhooks: commit to a local receiver "
            "p95 < 500 ms, 100 endpoints"),
        Goal("missing_deliveries", "==", 0, about="all delivered"),
        Goal("latency_bad_signatures", "==", 0, about="every signature verified"),
        Goal("outage_missing", "==", 0, about="a receiver down 120 s, then back, gets every one"),
    ],
)  # fmt: skip
