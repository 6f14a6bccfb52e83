"""Idempotent retries, and open seats taken by joining players."""

from __future__ import annotations

import uuid

from tests.api.play import auth, create_game, humans, join_body, tokens_of
from tests.api.test_errors import assert_problem


def test_a_retried_create_returns_the_first_response_and_creates_one_game(client):
    body = {"type": "trick_and_snipers", "seats": humans(3), "options": {}}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/games", json=body, headers=key)
    again = client.post("/games", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    listed = client.get("/games?limit=100").get_json()["games"]
    assert sum(game["id"] == first.get_json()["id"] for game in listed) == 1


def test_a_guessable_creation_key_is_refused_and_creates_nothing(client):
    body = {"type": "trick_and_snipers", "seats": humans(3), "options": {}}
    before = client.get("/games?limit=100").get_json()["games"]
    keys = ("create-1", "aaaaaaaaaaaaaaaaaaaa", "00000000-0000-0000-0000-000000000000",
            "user-12345-create-game")  # fmt: skip
    for key in keys:
        response = client.post("/games", json=body, headers={"Idempotency-Key": key})
        assert_problem(response, 400, "validation-error")
        assert "random UUID" in response.get_json()["detail"]
        assert "Idempotency-Key" in response.get_json()["errors"]
    assert client.get("/games?limit=100").get_json()["games"] == before


def test_a_retried_action_appends_once_and_returns_the_first_response(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(game)[0]
    hand = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()["you"]["hand"]
    action = {"type": "pass_cards", "cards": hand[:4]}
    headers = {**auth(token), "Idempotency-Key": "pass-1"}
    first = client.post(f"/games/{game['id']}/actions", json=action, headers=headers)
    again = client.post(f"/games/{game['id']}/actions", json=action, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert client.get(f"/games/{game['id']}").get_json()["version"] == game["version"] + 1


def test_the_same_key_with_another_body_is_refused(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(game)[0]
    hand = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()["you"]["hand"]
    headers = {**auth(token), "Idempotency-Key": "pass-2"}
    url = f"/games/{game['id']}/actions"
    client.post(url, json={"type": "pass_cards", "cards": hand[:4]}, headers=headers)
    response = client.post(url, json={"type": "pass_cards", "cards": hand[4:8]}, headers=headers)
    assert_problem(response, 422, "idempotency-key-reused")


def test_the_game_starts_when_the_last_open_seat_is_taken(client):
    game = create_game(client, "trick_and_snipers", humans(1) + [{"kind": "open"}] * 2)
    assert game["status"] == "waiting" and game["phase"] == "waiting"
    assert game["seats"][1]["kind"] == "open"
    url = f"/games/{game['id']}/seats"
    joined = client.post(f"{url}/1/join", json=join_body(game, 1, "Ann"))
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1
    assert_problem(client.post(f"{url}/1/join", json=join_body(game, 1, "Bob")), 409, "seat-taken")
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "waiting"
    client.post(f"{url}/2/join", json=join_body(game, 2, "Cy"))
    started = client.get(
        f"/games/{game['id']}", headers=auth(joined.get_json()["token"])
    ).get_json()
    assert started["status"] == "active" and started["seats"][1]["name"] == "Ann"
    assert len(started["you"]["hand"]) == 12


def test_a_missing_seat_is_not_found_and_acting_before_the_start_is_refused(client):
    game = create_game(client, "trick_and_snipers", humans(1) + [{"kind": "open"}] * 2)
    assert_problem(
        client.post(f"/games/{game['id']}/seats/9/join", json={"name": "X", "invite": "i"}),
        404,
        "not-found",
    )
    response = client.post(
        f"/games/{game['id']}/actions",
        headers=auth(tokens_of(game)[0]),
        json={"type": "play_card", "card": {"suit": "red", "rank": 1}},
    )
    assert_problem(response, 409, "game-not-started")


def test_games_are_listed_newest_first_with_a_cursor_and_filters(client):
    ids = [create_game(client, "trick_and_snipers", humans(3))["id"] for _ in range(3)]
    page = client.get("/games?limit=2&type=trick_and_snipers&status=active").get_json()
    assert [game["id"] for game in page["games"]] == ids[::-1][:2]
    rest = client.get(f"/games?limit=2&status=active&cursor={page['next_cursor']}").get_json()
    assert rest["games"][0]["id"] == ids[0]
