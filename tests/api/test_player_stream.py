"""GET /me/stream on both paths (gunicorn, and Pushpin in front): a player's notices for all its
tables in one stream, in order, resumable with Last-Event-ID, never a card, ended by a new key;
opened by a browser's EventSource with a single-use ticket (POST /me/stream-ticket) instead of
the key."""

from __future__ import annotations

import json
import time

import pytest
import requests

from testing.sse import Stream
from tests.api import test_event_stream

KINDS = {"your_turn", "game_started", "game_ended", "invited", "timed_out", "seat_lost"}


server = test_event_stream.server  # gunicorn serving the streams, and Pushpin in front


def post(url: str, path: str, body: dict | None = None, key: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = requests.post(f"{url}{path}", json=body or {}, headers=headers, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def table_for(url: str, key: str, other: str | None = None) -> dict:
    """Trick & Snipers: the player at seat 0, then `other`'s player (or an anonymous human),
    and a bot; everyone passes at once after the deal."""
    second = {"kind": "open", "player": other} if other else {"kind": "human", "name": "x"}
    seats = [{"kind": "human", "player": "me"}, second, {"kind": "bot", "level": "random"}]
    return post(url, "/games", {"type": "trick_and_snipers", "seats": seats}, key)


def notices_until(stream: Stream, count: int, within: float = 10.0) -> list[dict]:
    deadline, found = time.monotonic() + within, []
    for message in stream.messages():
        if "data" in message:
            found.append({"id": message["id"], "event": message["event"], **message["data"]})
            if len(found) == count:
                return found
        assert time.monotonic() < deadline, f"only {found}"
    raise AssertionError(f"the stream ended after {found}")


def test_one_stream_carries_a_players_notices_from_all_its_tables_in_order(server):
    # Given Ada's stream open, then two tables of hers dealt
    ada = post(server, "/players", {"name": "Ada"})
    stream = Stream(f"{server}/me/stream", headers={"Authorization": f"Bearer {ada['key']}"})
    first, second = table_for(server, ada["key"]), table_for(server, ada["key"])
    # Then each table told her it started and that it is her turn, numbered 1, 2, 3, 4
    found = notices_until(stream, 4)
    stream.close()
    assert [n["id"] for n in found] == [1, 2, 3, 4]
    by_game = {(n["game_id"], n["kind"]) for n in found}
    for game in (first, second):
        assert (game["id"], "game_started") in by_game and (game["id"], "your_turn") in by_game
    assert all(n["event"] == n["kind"] and n["seat"] == 0 for n in found)
    assert all(set(n) == {"id", "event", "kind", "game_id", "version", "seat", "at"} for n in found)


def test_a_stream_resumes_after_the_last_notice_it_was_sent(server):
    ada = post(server, "/players", {"name": "Ada"})
    auth = {"Authorization": f"Bearer {ada['key']}"}
    for _ in range(2):
        table_for(server, ada["key"])
    resumed = Stream(f"{server}/me/stream", headers={**auth, "Last-Event-ID": "3"})
    (fourth,) = notices_until(resumed, 1)
    resumed.close()
    assert fourth["id"] == 4


def test_an_invited_player_is_told_and_the_notices_show_no_card(server):
    ada, bob = post(server, "/players", {"name": "Ada"}), post(server, "/players", {"name": "Bob"})
    game = table_for(server, ada["key"], other=bob["id"])
    stream = Stream(f"{server}/me/stream?access_token={bob['key']}")
    (invited,) = notices_until(stream, 1)
    post(server, f"/games/{game['id']}/seats/1/join", {}, bob["key"])
    started, turn = notices_until(stream, 2)
    stream.close()
    assert (invited["kind"], invited["seat"], invited["game_id"]) == ("invited", 1, game["id"])
    assert {started["kind"], turn["kind"]} == {"game_started", "your_turn"}
    text = json.dumps([invited, started, turn])
    assert "suit" not in text and "rank" not in text


def test_a_new_key_ends_the_stream_the_old_one_opened(server):
    ada = post(server, "/players", {"name": "Ada"})
    stream = Stream(f"{server}/me/stream", headers={"Authorization": f"Bearer {ada['key']}"})
    new_key = post(server, "/players/me/key", None, ada["key"])["key"]
    table_for(server, new_key)  # notices the old key's stream must never get
    deadline, sent = time.monotonic() + 10, []
    for message in stream.messages():
        if "data" in message:
            sent.append(message)
        assert time.monotonic() < deadline, "the stream did not end"
    assert sent == []


def test_a_stream_needs_the_players_key(server):
    refused = requests.get(f"{server}/me/stream", headers={"Authorization": "Bearer pk_no"})
    assert refused.status_code == 401
    assert refused.headers["Content-Type"] == "application/problem+json"


def ticket(url: str, key: str) -> str:
    issued = post(url, "/me/stream-ticket", None, key)
    assert issued["expires_at"].endswith("Z")
    return issued["ticket"]


def test_a_ticket_opens_the_players_stream_once_and_resumes_after_a_number(server):
    # Given Ada with two dealt tables (notices 1-4)
    ada = post(server, "/players", {"name": "Ada"})
    for _ in range(2):
        table_for(server, ada["key"])
    # When a ticket opens her stream after notice 3
    issued = ticket(server, ada["key"])
    stream = Stream(f"{server}/me/stream?ticket={issued}&after=3")
    (fourth,) = notices_until(stream, 1)
    stream.close()
    # Then it gets notice 4 on, and the ticket is spent
    assert (fourth["id"], fourth["game_id"] is not None) == (4, True)
    again = requests.get(f"{server}/me/stream?ticket={issued}", timeout=10)
    assert again.status_code == 401
    assert again.headers["Content-Type"] == "application/problem+json"


def test_a_ticket_made_before_the_key_was_replaced_opens_nothing(server):
    ada = post(server, "/players", {"name": "Ada"})
    issued = ticket(server, ada["key"])
    post(server, "/players/me/key", None, ada["key"])
    refused = requests.get(f"{server}/me/stream?ticket={issued}", timeout=10)
    assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"


def test_a_ticket_stream_ends_when_its_key_is_replaced(server):
    ada = post(server, "/players", {"name": "Ada"})
    stream = Stream(f"{server}/me/stream?ticket={ticket(server, ada['key'])}")
    new_key = post(server, "/players/me/key", None, ada["key"])["key"]
    table_for(server, new_key)
    deadline, sent = time.monotonic() + 10, []
    for message in stream.messages():
        if "data" in message:
            sent.append(message)
        assert time.monotonic() < deadline, "the stream did not end"
    assert sent == []


def test_a_game_streams_ticket_does_not_open_a_players_stream_nor_the_reverse(server):
    ada = post(server, "/players", {"name": "Ada"})
    game = table_for(server, ada["key"])
    for_the_game = post(server, f"/games/{game['id']}/stream-ticket", None, ada["key"])["ticket"]
    refused = requests.get(f"{server}/me/stream?ticket={for_the_game}", timeout=10)
    assert refused.status_code == 401
    for_the_player = ticket(server, ada["key"])
    path = f"/games/{game['id']}/events/stream?ticket={for_the_player}"
    assert requests.get(f"{server}{path}", timeout=10).status_code == 401


def test_a_ticket_needs_a_players_key(server):
    for headers in ({}, {"Authorization": "Bearer pk_no"}):
        refused = requests.post(f"{server}/me/stream-ticket", headers=headers, timeout=10)
        assert refused.status_code == 401


@pytest.mark.parametrize("credential", ["ticket=", "access_token=", f"ticket={'t' * 300}"])
def test_an_empty_or_overlong_ticket_or_key_in_the_url_is_unauthorized(server, credential):
    response = requests.get(f"{server}/me/stream?{credential}", timeout=10)
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"
