"""Open seats are taken with their invite only; a seat's token can be replaced, and the old one
stops working at once."""

from __future__ import annotations

import uuid

from tests.api.play import auth, create_game, humans, invites_of, join_body, tokens_of

OPEN = {"kind": "open"}


def table_with_open_seats(client) -> dict:
    return create_game(client, "trick_and_snipers", humans(1) + [OPEN, OPEN])


def test_each_open_seat_gets_an_invite_and_no_other_seat_does(client):
    created = create_game(
        client, "trick_and_snipers", [*humans(1), OPEN, {"kind": "bot", "level": "random"}]
    )
    assert sorted(invites_of(created)) == [1]
    assert sorted(tokens_of(created)) == [0]
    assert len(invites_of(created)[1]) >= 43  # 256 random bits


def test_a_wrong_invite_is_forbidden_and_changes_nothing(client):
    created = table_with_open_seats(client)
    url = f"/games/{created['id']}/seats/1/join"
    wrong = client.post(url, json={"name": "Eve", "invite": invites_of(created)[2]})
    missing = client.post(url, json={"name": "Eve"})
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "forbidden"
    assert missing.status_code == 403 and missing.get_json()["code"] == "forbidden"  # as wrong
    game = client.get(f"/games/{created['id']}").get_json()
    assert game["version"] == created["version"] and game["seats"][1]["kind"] == "open"
    assert client.post(url, json=join_body(created, 1, "Ann")).status_code == 201


def test_a_new_token_replaces_the_old_one_at_once(client):
    created = create_game(client, "trick_and_snipers", humans(3))
    game, old = created["id"], tokens_of(created)[0]
    response = client.post(f"/games/{game}/seats/0/token", headers=auth(old))
    new = response.get_json()["token"]
    assert response.status_code == 201 and response.get_json()["seat"] == 0 and new != old
    assert client.get(f"/games/{game}", headers=auth(old)).status_code == 401
    assert client.get(f"/games/{game}", headers=auth(new)).get_json()["you"]["seat"] == 0
    assert response.headers["Cache-Control"] == "no-store"


def test_only_the_seats_own_token_can_replace_it(client):
    created = create_game(client, "trick_and_snipers", humans(3))
    game, tokens = created["id"], tokens_of(created)
    others = client.post(f"/games/{game}/seats/0/token", headers=auth(tokens[1]))
    nobody = client.post(f"/games/{game}/seats/0/token")
    assert others.status_code == 401 and nobody.status_code == 401
    assert client.get(f"/games/{game}", headers=auth(tokens[0])).status_code == 200


def test_a_retried_create_gives_the_same_tokens_and_invites(client):
    body = {"type": "trick_and_snipers", "seats": [*humans(1), OPEN, OPEN], "options": {}}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/games", json=body, headers=key).get_json()
    again = client.post("/games", json=body, headers=key).get_json()
    assert again["id"] == first["id"]
    assert again["tokens"] == first["tokens"] and again["invites"] == first["invites"]


def test_names_are_trimmed_and_never_blank_reversed_or_split_over_lines(client):
    url = "/games"

    def created_with(name: str):
        seats = [{"kind": "human", "name": name}, OPEN, OPEN]
        return client.post(url, json={"type": "trick_and_snipers", "seats": seats})

    for bad in ("   ", "\u202eevil", "two\u2028lines", "a\u2066b", "x" * 65):
        response = created_with(bad)
        assert response.status_code == 400, bad
    kept = created_with("  Zoe\u0301  ").get_json()  # e + combining acute: one é once normal
    assert kept["seats"][0]["name"] == "Zo\u00e9"
