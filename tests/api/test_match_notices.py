"""`match_found`: each player a matcher seats is told the game and its seat, first among the
notices of the table's creation, on `/me/stream` (a real threaded server) and on its webhooks (a
real worker process delivering to a real receiver); never a card, though the table is dealt."""

from __future__ import annotations

import dataclasses

import pytest

from testing.sse import Stream
from tests.api.knowledge import cards_shown
from tests.api.play import auth
from tests.api.test_event_stream import HEARTBEAT, serving
from tests.api.test_player_stream import notices_until, post
from tests.api.test_players import new_player
from tests.api.test_webhooks import NOTICE_KEYS, receiver_for
from tests.api.webhook_receiver import receiving


@pytest.fixture(scope="module")
def server(settings):
    with serving(dataclasses.replace(settings, stream_heartbeat_seconds=HEARTBEAT)) as url:
        yield url


@pytest.fixture(autouse=True)
def empty_queue(app):
    with app.extensions["cardroom"].pool.connection() as conn:
        conn.execute("DELETE FROM queue_entries")


def test_each_seated_player_is_told_match_found_on_its_stream_with_its_game_and_seat(server, app):
    # Given three players waiting for a Saint Poker table of three, their streams open
    players = [post(server, "/players", {"name": name}) for name in ("Ada", "Bo", "Cy")]
    streams = [Stream(f"{server}/me/stream?access_token={p['key']}") for p in players]
    for player in players:
        post(server, "/me/queue", {"type": "saint_poker", "players": [3]}, player["key"])
    # When a matcher passes
    app.extensions["cardroom"].matcher.run_once()
    # Then each stream's first notice is match_found, naming the game and the player's seat
    told = [notices_until(stream, 3) for stream in streams]
    for stream in streams:
        stream.close()
    seats = []
    for player, notices in zip(players, told, strict=True):
        found = notices[0]
        assert (found["event"], found["kind"], found["id"]) == ("match_found", "match_found", 1)
        game = app.test_client().get(f"/games/{found['game_id']}", headers=auth(player["key"]))
        assert game.get_json()["you"]["seat"] == found["seat"]
        assert found["version"] == notices[1]["version"]  # the table's creation, dealt
        assert {n["kind"] for n in notices[1:]} <= {"game_started", "your_turn"}
        seats.append(found["seat"])
        # And no notice shows a card, though each player now holds ten
        assert list(cards_shown(notices)) == []
    assert sorted(seats) == [0, 1, 2]
    assert len({notices[0]["game_id"] for notices in told}) == 1


def test_a_webhook_subscribed_to_match_found_gets_it_signed_and_without_a_card(client, app, worker):
    # Given three players waiting for St Patrick, one with a webhook for match_found
    ada, bo, cy = (new_player(client, name) for name in ("Ada", "Bo", "Cy"))
    with receiving() as receiver:
        receiver_for(client, ada["key"], receiver, ["match_found"])
        body = {"type": "st_patrick", "players": [3]}
        for player in (ada, bo, cy):
            response = client.post("/me/queue", json=body, headers=auth(player["key"]))
            assert response.status_code == 201
        # When a matcher (this test's, or the worker's) seats them
        app.extensions["cardroom"].matcher.run_once()
        (delivered,) = receiver.wait_for(1)
    # Then the webhook got the notice, signed, naming the game and Ada's seat, and no card
    assert receiver.unverified == []
    payload = delivered.payload
    where = client.get("/me/queue", headers=auth(ada["key"])).get_json()["match"]
    assert set(payload) == NOTICE_KEYS and payload["kind"] == "match_found"
    assert (payload["game_id"], payload["seat"]) == (where["game_id"], where["seat"])
    assert list(cards_shown(payload)) == [] and list(cards_shown(delivered.body.decode())) == []
