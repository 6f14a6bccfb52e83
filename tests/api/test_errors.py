"""Bad requests get a clear problem+json error with a stable code, and change nothing."""

from __future__ import annotations

import uuid

import pytest

from tests.api.play import auth, create_game, humans, invites_of, tokens_of

PROBLEM = "application/problem+json"


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert {"type", "title", "detail"} <= set(body)
    return body


@pytest.mark.parametrize(
    "body",
    [
        {"type": "chess", "seats": [{"kind": "human", "name": "a"}] * 3},
        {"type": "trick_and_snipers", "seats": [{"kind": "human", "name": "a"}] * 2},
        {"type": "trick_and_snipers", "seats": [{"kind": "bot", "level": "genius"}] * 3},
        {"type": "trick_and_snipers", "seats": [{"kind": "human"}] * 3},
        {"type": "trick_and_snipers", "seats": "three", "options": {}},
        {"type": "trick_and_snipers", "seats": [{"kind": "open"}] * 3, "options": {"x": 1}},
        {"type": "trick_and_snipers", "seats": [{"kind": "open"}] * 3, "extra": True},
        {
            "type": "trick_and_snipers",
            "seats": [{"kind": "open"}] * 3,
            "options": {"first_leader": 7},
        },
        {"type": "trick_and_snipers", "seats": [{"kind": "human", "name": "\u0000"}] * 3},
        [],
        "just a string",
    ],
)
def test_a_malformed_create_is_a_validation_error(client, body):
    before = game_ids(client)
    assert_problem(client.post("/games", json=body), 400, "validation-error")
    assert game_ids(client) == before  # no table was made (others' games may move meanwhile)


def game_ids(client) -> list[str]:
    return [game["id"] for game in client.get("/games?limit=100").get_json()["games"]]


def test_a_body_that_is_not_json_is_a_validation_error(client):
    response = client.post("/games", data=b"\xff\xfe{", content_type="application/json")
    assert_problem(response, 400, "validation-error")


def test_a_huge_body_is_refused_without_reading_it(client):
    response = client.post(
        "/games", data=b"{" + b" " * 100_000 + b"}", content_type="application/json"
    )
    assert response.status_code == 413 and response.mimetype == PROBLEM


def test_an_unknown_game_and_a_bad_id_are_not_found(client):
    assert_problem(client.get(f"/games/{uuid.uuid4()}"), 404, "not-found")
    assert_problem(client.get("/games/not-a-uuid"), 404, "not-found")
    assert_problem(client.get("/no/such/route"), 404, "not-found")


def test_acting_without_a_token_or_with_a_wrong_one_is_unauthorized(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    other = create_game(client, "trick_and_snipers", humans(3))
    url = f"/games/{game['id']}/actions"
    action = {"type": "play_card", "card": {"suit": "red", "rank": 1}}
    assert_problem(client.post(url, json=action), 401, "unauthorized")
    assert_problem(client.post(url, json=action, headers=auth("nope")), 401, "unauthorized")
    foreign = auth(tokens_of(other)[0])
    assert_problem(client.post(url, json=action, headers=foreign), 401, "unauthorized")
    assert_problem(client.get(f"/games/{game['id']}", headers=foreign), 401, "unauthorized")


def test_an_illegal_action_is_refused_with_the_legal_actions(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(game)[0]
    body = assert_problem(
        client.post(
            f"/games/{game['id']}/actions",
            headers=auth(token),
            json={"type": "play_card", "card": {"suit": "red", "rank": 1}},
        ),
        409,
        "illegal-action",
    )
    assert body["legal_actions"][0]["type"] == "pass_cards"
    after = client.get(f"/games/{game['id']}").get_json()
    assert after["version"] == game["version"]


def test_an_action_of_another_game_type_is_illegal_here_with_the_legal_actions(client):
    # The body is of the spec's shape (take_relics is St Patrick's), so it is not a 400.
    game = create_game(client, "trick_and_snipers", humans(3))
    response = client.post(
        f"/games/{game['id']}/actions",
        headers=auth(tokens_of(game)[0]),
        json={"type": "take_relics", "count": 2},
    )
    body = assert_problem(response, 409, "illegal-action")
    assert body["legal_actions"][0]["type"] == "pass_cards"


def test_an_action_type_no_game_has_is_a_validation_error(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    response = client.post(
        f"/games/{game['id']}/actions",
        headers=auth(tokens_of(game)[0]),
        json={"type": "castle", "count": 2},
    )
    assert_problem(response, 400, "validation-error")


def test_a_stale_expected_version_is_a_conflict_with_the_current_version(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    token = tokens_of(game)[0]
    hand = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()["you"]["hand"]
    body = assert_problem(
        client.post(
            f"/games/{game['id']}/actions",
            headers=auth(token),
            json={"type": "pass_cards", "cards": hand[:4], "expected_version": 1},
        ),
        409,
        "version-conflict",
    )
    assert body["current_version"] == game["version"]


def test_fixed_decks_are_refused_unless_the_server_allows_them(app, client):
    settings = app.extensions["cardroom"].settings
    object.__setattr__(settings, "allow_fixed_deck", False)
    try:
        deck = [
            {"suit": s, "rank": r} for s in ("red", "yellow", "green", "blue") for r in range(1, 13)
        ]
        response = client.post(
            "/games",
            json={"type": "trick_and_snipers", "seats": humans(4), "options": {"deck": deck}},
        )
        assert_problem(response, 400, "validation-error")
    finally:
        object.__setattr__(settings, "allow_fixed_deck", True)


def test_an_unreachable_database_is_a_503_with_retry_after_not_a_500(settings):
    from dataclasses import replace

    from api import create_app

    app = create_app(replace(settings, database_url="postgresql://postgres@127.0.0.1:1/none"))
    pool = app.extensions["cardroom"].pool
    pool.timeout = 0.5  # don't wait the production 10 s for a connection
    try:
        response = app.test_client().get(f"/games/{uuid.uuid4()}")
        body = assert_problem(response, 503, "unavailable")
        assert response.headers["Retry-After"] == "1" and "detail" in body
    finally:
        pool.close()


def test_acting_in_a_finished_game_is_refused_as_game_finished(client):
    from tests.api.play import play_to_end

    game = create_game(client, "trick_and_snipers", humans(3))
    final = play_to_end(client, game["id"], tokens_of(game), seed=2)
    response = client.post(
        f"/games/{game['id']}/actions",
        headers=auth(tokens_of(game)[0]),
        json={"type": "play_card", "card": {"suit": "red", "rank": 1}},
    )
    assert_problem(response, 409, "game-finished")
    assert client.get(f"/games/{game['id']}").get_json()["version"] == final["version"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"type": "trick_and_snipers", "seats": [{"kind": "human", "name": "a\\ud800"}]}',
        b'{"type": "trick_and_snipers", "seats": [], "options": {"\\udfff": 1}}',
    ],
)
def test_text_with_lone_surrogates_is_a_validation_error(client, body):
    response = client.post("/games", data=body, content_type="application/json")
    assert_problem(response, 400, "validation-error")


def test_a_name_with_a_lone_surrogate_cannot_join(client):
    game = create_game(client, "trick_and_snipers", humans(1) + [{"kind": "open"}] * 2)
    response = client.post(
        f"/games/{game['id']}/seats/1/join",
        data=b'{"name": "x\\udfffy", "invite": "' + invites_of(game)[1].encode() + b'"}',
        content_type="application/json",
    )
    assert_problem(response, 400, "validation-error")
    assert client.get(f"/games/{game['id']}").get_json()["version"] == game["version"]


def test_json_nested_too_deeply_to_parse_is_a_validation_error(client):
    response = client.post(
        "/games", data=b"[" * 30000 + b"]" * 30000, content_type="application/json"
    )
    assert_problem(response, 400, "validation-error")
