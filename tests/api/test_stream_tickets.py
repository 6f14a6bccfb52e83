"""Stream tickets: a browser's EventSource opens its seat's stream with a short-lived, single-use
ticket instead of putting the seat token in the URL."""

from __future__ import annotations

import dataclasses

import pytest
from flask.testing import FlaskClient

from api import create_app
from tests.api.play import auth, create_game, humans, tokens_of


def ticket_for(client, game_id: str, token: str) -> dict:
    response = client.post(f"/games/{game_id}/stream-ticket", headers=auth(token))
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def opened(client, game_id: str, ticket: str):
    """A plain client: the spec describes one stream message, not a whole streamed body."""
    plain = FlaskClient(client.application, client.application.response_class)
    return plain.get(f"/games/{game_id}/events/stream?ticket={ticket}")


def test_a_ticket_opens_its_seats_stream_once(client, app):
    game = create_game(client, "trick_and_snipers", humans(3))
    services = app.extensions["cardroom"]
    services.settings = dataclasses.replace(services.settings, stream_max_seconds=0.1)
    try:
        issued = ticket_for(client, game["id"], tokens_of(game)[1])
        first = opened(client, game["id"], issued["ticket"])
        text = first.get_data(as_text=True)
        again = opened(client, game["id"], issued["ticket"])
    finally:
        services.settings = dataclasses.replace(services.settings, stream_max_seconds=0.0)
    assert issued["seat"] == 1 and issued["expires_at"].endswith("Z")
    assert first.status_code == 200
    hands = [line for line in text.splitlines() if '"type":"HandDealt"' in line]
    assert sum('"cards":' in line for line in hands) == 1  # seat 1 sees its own hand only
    assert again.status_code == 401 and again.get_json()["code"] == "unauthorized"


def test_a_ticket_is_good_for_its_own_game_only(client):
    one = create_game(client, "trick_and_snipers", humans(3))
    other = create_game(client, "trick_and_snipers", humans(3))
    issued = ticket_for(client, one["id"], tokens_of(one)[0])
    assert opened(client, other["id"], issued["ticket"]).status_code == 401
    assert opened(client, one["id"], "made-up").status_code == 401


def test_a_ticket_needs_a_seat_token(client):
    game = create_game(client, "trick_and_snipers", humans(3))
    assert client.post(f"/games/{game['id']}/stream-ticket").status_code == 401
    refused = client.post(f"/games/{game['id']}/stream-ticket", headers=auth("not-a-token"))
    assert refused.status_code == 401


def test_without_redis_a_ticket_is_503_with_retry_after(settings, client):
    game = create_game(client, "trick_and_snipers", humans(3))
    app = create_app(dataclasses.replace(settings, redis_url="redis://127.0.0.1:1/0"))
    try:
        response = app.test_client().post(
            f"/games/{game['id']}/stream-ticket", headers=auth(tokens_of(game)[0])
        )
    finally:
        app.extensions["cardroom"].pool.close()
    assert response.status_code == 503 and response.get_json()["code"] == "unavailable"
    assert response.headers["Retry-After"] == "1"


@pytest.mark.parametrize("ticket", ["", "t" * 300])
def test_an_empty_or_overlong_ticket_is_unauthorized_as_on_the_notice_stream(client, ticket):
    """Both streams read one query schema, which leaves a ticket's form to the ticket store:
    what is no ticket is a clean 401 problem, not a 400 on one stream and a 401 on the other."""
    game = create_game(client, "trick_and_snipers", humans(3))
    response = client.get(f"/games/{game['id']}/events/stream?ticket={ticket}")
    assert response.status_code == 401 and response.get_json()["code"] == "unauthorized"
    assert response.mimetype == "application/problem+json"
