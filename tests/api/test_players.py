"""Players through the API: a key shown once, a public profile, a seat taken with the key (at
creation, or joining a seat kept for the player), acting, reading and leaving as that seat, the
inbox of tables, and a new key that ends the old one at once."""

from __future__ import annotations

import random

import pytest

from domain.kit.templates import action_from_template
from tests.api.play import auth, create_game
from tests.api.test_errors import assert_problem


def new_player(client, name: str = "Ada") -> dict:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def me(name: str | None = None) -> dict:
    seat = {"kind": "human", "player": "me"}
    return seat | ({"name": name} if name else {})


def bot(level: str = "random") -> dict:
    return {"kind": "bot", "level": level}


def act_first_legal(client, game_id: str, key: str, rng: random.Random) -> dict:
    mine = client.get(f"/games/{game_id}", headers=auth(key)).get_json()
    action = action_from_template(mine["you"]["legal_actions"][0], rng)
    response = client.post(f"/games/{game_id}/actions", json=action, headers=auth(key))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_new_player_gets_its_key_once_and_a_public_profile(client):
    player = new_player(client, "Ada")
    assert player["key"].startswith("pk_") and len(player["key"]) >= 43
    profile = client.get(f"/players/{player['id']}").get_json()
    assert profile == {
        "id": player["id"],
        "name": "Ada",
        "created_at": player["created_at"],
        "games": {},
        "ratings": {},
    }


@pytest.mark.parametrize("name", ["", "x" * 65, "bad\x07bell", "   "])
def test_a_player_name_must_be_a_name_people_can_read(client, name):
    assert_problem(client.post("/players", json={"name": name}), 400, "validation-error")


def test_an_unknown_player_is_not_found(client):
    missing = client.get("/players/00000000-0000-4000-8000-000000000000")
    assert_problem(missing, 404, "not-found")
    assert_problem(client.get("/players/not-an-id"), 404, "not-found")


def test_a_player_sits_down_with_its_key_and_acts_reads_and_leaves_as_that_seat(client):
    # Given a table created with the player's key at seat 0
    ada = new_player(client, "Ada")
    game = create_game(client, "trick_and_snipers", [me(), bot(), bot()], headers=auth(ada["key"]))
    assert game["seats"][0]["player_id"] == ada["id"] and game["seats"][0]["name"] == "Ada"
    # Then the key reads the seat's view, acts for it, and leaves it
    view = client.get(f"/games/{game['id']}", headers=auth(ada["key"])).get_json()
    assert view["you"]["seat"] == 0
    act_first_legal(client, game["id"], ada["key"], random.Random(1))
    left = client.post(f"/games/{game['id']}/seats/0/leave", headers=auth(ada["key"]))
    assert left.status_code == 201
    # And once it left, the key is no one's at that table
    again = client.get(f"/games/{game['id']}", headers=auth(ada["key"]))
    assert_problem(again, 401, "unauthorized")


def test_me_at_a_table_needs_a_players_key(client):
    body = {"type": "trick_and_snipers", "seats": [me("Ada"), bot(), bot()]}
    assert_problem(client.post("/games", json=body), 401, "unauthorized")


def test_two_players_play_a_table_to_the_end_with_their_keys(client, worker):
    # Given Ada's table with a seat kept for Bob, who joins with his key alone
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    seats = [me(), {"kind": "open", "player": bob["id"]}, bot("basic")]
    game = create_game(client, "trick_and_snipers", seats, headers=auth(ada["key"]))
    joined = client.post(f"/games/{game['id']}/seats/1/join", json={}, headers=auth(bob["key"]))
    assert joined.status_code == 201, joined.get_json()
    # When both play with their keys until the game ends
    keys, rng = {0: ada["key"], 1: bob["key"]}, random.Random(7)
    from tests.api.play import wait_for

    for _ in range(400):
        state = wait_for(client, game["id"], lambda g: g["status"] == "finished" or
                         bool(set(g["to_act"]) & {0, 1}))  # fmt: skip
        if state["status"] == "finished":
            break
        seat = next(s for s in state["to_act"] if s in keys)
        act_first_legal(client, game["id"], keys[seat], rng)
    # Then the game is over, and the events say who sat where
    assert state["status"] == "finished"
    events = client.get(f"/games/{game['id']}/events?limit=5").get_json()["events"]
    created_seats = events[0]["data"]["seats"]
    assert created_seats[0]["player"] == ada["id"] and created_seats[1]["player"] == bob["id"]
    joins = client.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    assert any(e["type"] == "SeatJoined" and e["data"]["player"] == bob["id"] for e in joins)
    assert client.get(f"/players/{bob['id']}").get_json()["games"] == {"trick_and_snipers": 1}


def test_a_seat_kept_for_a_player_is_no_one_elses(client):
    ada, bob = new_player(client, "Ada"), new_player(client, "Bob")
    seats = [me(), {"kind": "open", "player": bob["id"]}, bot()]
    game = create_game(client, "trick_and_snipers", seats, headers=auth(ada["key"]))
    invite = game["invites"][0]["invite"]
    with_invite = client.post(f"/games/{game['id']}/seats/1/join",
                              json={"name": "Eve", "invite": invite})  # fmt: skip
    assert_problem(with_invite, 403, "forbidden")


def test_a_player_has_one_seat_per_table(client):
    ada = new_player(client)
    game = create_game(client, "trick_and_snipers", [me(), {"kind": "open"}, bot()],
                       headers=auth(ada["key"]))  # fmt: skip
    invite = game["invites"][0]["invite"]
    second = client.post(f"/games/{game['id']}/seats/1/join", json={"invite": invite},
                         headers=auth(ada["key"]))  # fmt: skip
    assert_problem(second, 409, "seat-taken")


def test_a_new_key_ends_the_old_one_at_once(client):
    ada = new_player(client)
    game = create_game(client, "trick_and_snipers", [me(), bot(), bot()], headers=auth(ada["key"]))
    rotated = client.post("/players/me/key", headers=auth(ada["key"]))
    assert rotated.status_code == 201
    new_key = rotated.get_json()["key"]
    assert new_key != ada["key"]
    for path in (f"/games/{game['id']}", "/me/games"):
        assert_problem(client.get(path, headers=auth(ada["key"])), 401, "unauthorized")
        assert client.get(path, headers=auth(new_key)).status_code == 200


def test_the_inbox_lists_my_tables_and_which_wait_for_me(client):
    # Given two tables of Ada's: one where she must pass, one where she passed already
    ada = new_player(client)
    # (no bots: a worker of the session could move a table between her action and her read)
    waiting = create_game(client, "trick_and_snipers", [me(), {"kind": "human", "name": "x"},
                          {"kind": "human", "name": "z"}], headers=auth(ada["key"]))  # fmt: skip
    moved = create_game(client, "trick_and_snipers", [me(), {"kind": "human", "name": "y"},
                        {"kind": "human", "name": "z"}], headers=auth(ada["key"]))  # fmt: skip
    act_first_legal(client, moved["id"], ada["key"], random.Random(2))
    # When she reads her inbox
    everything = client.get("/me/games", headers=auth(ada["key"])).get_json()
    mine = client.get("/me/games?turn=mine", headers=auth(ada["key"])).get_json()
    # Then both tables are listed, the one that moved last first, and only one waits for her
    assert [item["game_id"] for item in everything["items"]] == [moved["id"], waiting["id"]]
    assert [item["game_id"] for item in mine["items"]] == [waiting["id"]]
    first = everything["items"][1]
    assert first["my_turn"] and first["seat"] == 0 and first["type"] == "trick_and_snipers"
    assert everything["items"][0]["last_acted_version"] == everything["items"][0]["version"]
    assert not everything["items"][0]["moved_since_my_move"]


def test_the_inbox_pages_with_cursors_and_answers_304_while_nothing_moved(client):
    ada = new_player(client)
    others = [{"kind": "human", "name": "x"}, {"kind": "human", "name": "y"}]  # nothing moves
    made = [create_game(client, "trick_and_snipers", [me(), *others],
                        headers=auth(ada["key"]))["id"] for _ in range(3)]  # fmt: skip
    first = client.get("/me/games?limit=2", headers=auth(ada["key"]))
    page = first.get_json()
    rest = client.get(f"/me/games?limit=2&cursor={page['next_cursor']}", headers=auth(ada["key"]))
    listed = [i["game_id"] for i in page["items"] + rest.get_json()["items"]]
    assert sorted(listed) == sorted(made) and rest.get_json()["next_cursor"] is None
    etag = first.headers["ETag"]
    unchanged = client.get("/me/games?limit=2", headers={**auth(ada["key"]), "If-None-Match": etag})
    assert unchanged.status_code == 304


def test_the_inbox_needs_a_players_key(client):
    assert_problem(client.get("/me/games"), 401, "unauthorized")
    assert_problem(client.get("/me/games", headers=auth("pk_nobody")), 401, "unauthorized")


def test_a_key_tells_whose_it_is(client):
    # Given a player, and a client that holds only its key (moved from another device)
    ada = new_player(client, "Ada")
    # When it asks whose key it is
    found = client.get("/players/me", headers=auth(ada["key"]))
    # Then it learns the player's public profile, and nothing is cached
    assert found.status_code == 200
    assert found.get_json() == client.get(f"/players/{ada['id']}").get_json()
    assert found.headers["Cache-Control"] == "no-store"


def test_a_key_that_is_no_players_or_no_longer_is_told_so(client):
    ada = new_player(client)
    client.post("/players/me/key", headers=auth(ada["key"]))  # the old key is replaced
    for key in (ada["key"], "pk_" + "A" * 43, "not-a-key"):
        assert_problem(client.get("/players/me", headers=auth(key)), 401, "unauthorized")
    assert_problem(client.get("/players/me"), 401, "unauthorized")
