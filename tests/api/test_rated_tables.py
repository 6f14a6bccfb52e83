"""Rated tables through the API: `options.rated` on POST /games, shown in every view, refused
with a human seat that is no player's, and a rated table's open seat taken with a key only."""

from __future__ import annotations

from tests.api.play import auth, create_game
from tests.api.test_errors import assert_problem
from tests.api.test_players import bot, me, new_player

RATED = {"rated": True}


def test_a_rated_table_of_a_player_and_bots_shows_it_is_rated(client):
    ada = new_player(client, "Ada")
    game = create_game(client, "st_patrick", [me(), bot("basic"), bot("strong")], RATED,
                       headers=auth(ada["key"]))  # fmt: skip
    assert game["rated"] is True
    shown = client.get(f"/games/{game['id']}").get_json()
    assert shown["rated"] is True and shown["options"]["rated"] is True
    created = client.get(f"/games/{game['id']}/events?limit=1").get_json()["events"][0]
    assert created["type"] == "TableCreated" and created["data"]["options"]["rated"] is True


def test_a_table_is_unrated_by_default(client):
    game = create_game(client, "saint_poker", [{"kind": "human", "name": "Al"}, bot()])
    assert client.get(f"/games/{game['id']}").get_json()["rated"] is False


def test_a_rated_table_with_an_anonymous_human_seat_is_refused_and_nothing_is_created(client):
    ada = new_player(client, "Ada")
    seats = [me(), {"kind": "human", "name": "Anon"}, bot()]
    body = {"type": "trick_and_snipers", "seats": seats, "options": RATED}
    before = client.get("/games?limit=100").get_json()["games"]
    refused = client.post("/games", json=body, headers=auth(ada["key"]))
    assert_problem(refused, 400, "validation-error")
    assert "player" in refused.get_json()["detail"]
    after = client.get("/games?limit=100").get_json()["games"]
    assert {g["id"] for g in after} - {g["id"] for g in before} == set()


def test_rated_must_be_a_boolean(client):
    ada = new_player(client, "Ada")
    body = {"type": "trick_and_snipers", "seats": [me(), bot(), bot()], "options": {"rated": 1}}
    assert_problem(client.post("/games", json=body, headers=auth(ada["key"])), 400,
                   "validation-error")  # fmt: skip


def test_a_rated_tables_open_seat_is_joined_with_a_player_key_only(client):
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    game = create_game(client, "trick_and_snipers", [me(), {"kind": "open"}, bot()], RATED,
                       headers=auth(ada["key"]))  # fmt: skip
    invite = game["invites"][0]["invite"]
    join = f"/games/{game['id']}/seats/1/join"
    anonymous = client.post(join, json={"name": "Eve", "invite": invite})
    assert_problem(anonymous, 403, "forbidden")
    assert "player key" in anonymous.get_json()["detail"]
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "waiting"
    joined = client.post(join, json={"invite": invite}, headers=auth(bob["key"]))
    assert joined.status_code == 201, joined.get_json()
    assert client.get(f"/games/{game['id']}").get_json()["seats"][1]["player_id"] == bob["id"]


def test_every_game_type_lists_rated_among_its_options(client):
    for game_type in client.get("/game-types").get_json():
        assert game_type["options"]["rated"] is False
