"""bench/support/paced_play.py replaces a game the moment its last action ends it, and tells the
bench, which opens the new game's streams (bench/stream.py): a long phase keeps its streams. Served
by a stand-in API that ends every game at its first action."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest

from bench.stream import (
    Phase,
    kept_open,
    phase_figures,
    server_side_posts,
    slowest_near,
    table_paths,
)
from bench.support.paced_play import PacedPlay, PlayLog, Table, Timed
from bench.support.players import Api

TEMPLATE = {"type": "play_card", "cards": ["red-1"], "send": {"type": {"value": "play_card"}}}


class OneActionGames(BaseHTTPRequestHandler):
    """POST /games makes game N; its seat 0 may act once, and that action ends it."""

    created = 0

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/games":
            type(self).created += 1
            game = f"g{self.created}"
            tokens = [{"seat": s, "token": f"{game}-t{s}"} for s in range(4)]
            self._answer(201, {**_state(game, "active"), "tokens": tokens})
        else:
            game = self.path.split("/")[2]
            self._answer(201, {"game": _state(game, "finished")})

    def do_GET(self) -> None:  # noqa: N802
        game = self.path.split("/")[2]
        self._answer(200, {**_state(game, "active"), "you": {"legal_actions": [TEMPLATE]}})

    def _answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def _state(game: str, status: str) -> dict:
    return {"id": game, "status": status, "to_act": [0], "version": 3, "type": "st_patrick"}


@pytest.fixture
def api_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), OneActionGames)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_game_ended_by_an_action_is_replaced_at_once_and_the_bench_told(api_url):
    # Given one table, and a bench that wants to hear of new tables
    play = PacedPlay(api_url, "st_patrick", "first", pace=3.0, drivers=1, seed=1)
    (first,) = play.create_tables(1)
    told: list[Table] = []
    play.on_replace = told.append
    api = Api(api_url, "st_patrick")
    # When its next action ends the game
    play._step(api, 0)
    api.close()
    # Then the new game takes its place in the same step, due a pace after that action, and
    # the bench hears of it once
    assert play.log.replaced == 1 and len(play.log.replacements) == 1
    assert [table.id for table in told] == [play.tables[0].id] != [first.id]
    assert told[0].replaces == first.id  # for the reader: the game whose streams ended
    assert play.tables[0].due >= first.due + play.pace


def test_a_new_tables_streams_are_its_seats_then_spectators_from_its_version():
    table = Table("g7", {s: f"t{s}" for s in range(4)}, {"version": 3}, rng=None)  # type: ignore[arg-type]
    paths = table_paths(table, 6)
    base = "/games/g7/events/stream?after=3"
    assert paths == [f"{base}&access_token=t{s}" for s in range(4)] + [base, base]


def figures(most: int, dropped: int, given_up: dict | None = None) -> dict:
    return {
        "streams_open_max_during_phase": most,
        "streams_dropped": dropped,
        "streams_given_up": given_up or {},
    }


def test_streams_count_as_kept_open_when_only_ended_games_lost_theirs():
    # Given 10,000 streams open at once, and none ended by the server but with their games
    assert kept_open(10_000, figures(10_000, dropped=0))


def test_a_stream_the_server_ended_before_its_game_did_fails_the_goal():
    # Given one stream the server ended while its game went on
    assert not kept_open(10_000, figures(10_000, dropped=1))
    # Or a phase that never had them all open at once
    assert not kept_open(10_000, figures(9_999, dropped=0))
    # Or a stream given up on (its handshake timed out), though its replacement's opened
    assert not kept_open(10_000, figures(10_000, dropped=0, given_up={"timeout": 1}))


def test_the_slowest_posts_are_found_in_the_seconds_after_a_replacement():
    # Given 200 POSTs a second apart, the two slowest sent just after a replacement
    posts = [Timed(float(at), 0.010) for at in range(200)]
    posts[50] = Timed(50.0, 0.300)
    posts[120] = Timed(120.0, 0.250)
    # When the replacements came at 49.5 s and 119.5 s
    near = slowest_near(posts, [49.5, 119.5], window=2.0)
    # Then every one of the slowest came near a replacement, and few POSTs did at all
    assert near["slowest_share"] == 1.0
    assert near["all_share"] == 4 / 200  # 50, 51 and 120, 121
    # And with the replacements elsewhere, none did
    assert slowest_near(posts, [10.0], window=2.0)["slowest_share"] == 0.0


def log_line(at: str, request: str, ms: float) -> str:
    return f"2026-12-03 {at} INFO cardroom.requests {request} {ms}ms id=x request_id=x"


def test_the_server_log_tells_the_posts_served_among_stream_handshakes_from_the_rest(tmp_path):
    # Given a service log: a quiet minute of 5 ms POSTs, then a minute with streams open whose
    # POSTs take 6 ms, but 40 ms while a crowd of handshakes came in at 01:01:30
    post, stream = "POST /games/<game_id>/actions 201", "GET /games/<game_id>/events/stream 200"
    lines = [log_line(f"01:00:{s:02d},000", post, 5.0) for s in range(60)]
    lines += [log_line(f"01:01:{s:02d},000", post, 6.0) for s in range(60) if s != 30]
    lines += [log_line(f"01:01:30,{ms:03d}", stream, 1.5) for ms in range(0, 500, 5)]
    lines += [log_line("01:01:30,300", post, 40.0)]
    log = tmp_path / "service.log"
    log.write_text("\n".join(sorted(lines)) + "\n")
    minute = time.mktime(time.strptime("2026-12-03 01:00:00", "%Y-%m-%d %H:%M:%S"))
    windows = {
        "quiet_window": (minute, minute + 59.9),
        "streams_window": (minute + 60, minute + 120),
    }
    # When the bench reads it
    found = server_side_posts(str(log), windows)
    # Then the streams phase's p99 is the crowd's POST, and apart from the crowd it is 6 ms
    assert found["quiet_server_post_p99_ms"] == 5.0
    assert found["streams_server_post_p99_ms"] == 40.0
    assert found["streams_server_post_p99_near_handshakes_ms"] == 40.0
    assert found["streams_server_post_p99_apart_ms"] == 6.0
    assert found["streams_server_posts_near_handshakes_share"] == round(1 / 60, 3)


def test_a_phase_counts_the_games_replaced_within_it_and_the_cpu_stolen_from_the_machine():
    # Given a phase from 100 s to 200 s, and games replaced before, in and at its end
    log = PlayLog(posts=[Timed(float(at), 0.010) for at in range(100, 200)])
    log.replacements = [50.0, 100.0, 150.5, 200.0]
    phase = Phase("no streams", 100.0, 200.0, None, None, None, 60.0, 7.5, 40.0, 0.0)
    # When its figures are taken
    figures = phase_figures("quiet", phase, SimpleNamespace(log=log))
    # Then the replacements counted are those from its start up to (not at) its end
    assert figures["quiet_games_replaced"] == 2
    assert figures["quiet_machine_steal_pct"] == 7.5
    assert figures["quiet_actions"] == 100
