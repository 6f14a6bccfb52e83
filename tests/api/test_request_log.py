"""One log line per request with a request id; never a token or a card in any log line."""

from __future__ import annotations

import logging

from tests.api.play import auth, create_game, humans, play_to_end, tokens_of


def test_every_request_is_logged_once_with_its_route_and_request_id(client, caplog):
    caplog.set_level(logging.INFO, logger="cardroom.requests")
    response = client.get("/healthz", headers={"X-Request-Id": "abc-123"})
    assert response.headers["X-Request-Id"] == "abc-123"
    lines = [r.getMessage() for r in caplog.records if r.name == "cardroom.requests"]
    assert len(lines) == 1 and "GET /healthz 200" in lines[0] and "id=abc-123" in lines[0]


def test_an_unsafe_request_id_is_replaced_by_a_fresh_one(client):
    response = client.get("/healthz", headers={"X-Request-Id": "bad id\u2028with spaces"})
    assert len(response.headers["X-Request-Id"]) == 32


def test_no_log_line_of_a_whole_game_holds_a_token_or_a_card(client, caplog):
    caplog.set_level(logging.DEBUG)
    game = create_game(client, "trick_and_snipers", humans(3))
    tokens = tokens_of(game)
    client.get(f"/games/{game['id']}", headers=auth("wrong-token"))
    client.post(f"/games/{game['id']}/actions", headers=auth(tokens[0]), json={"type": "nope"})
    play_to_end(client, game["id"], tokens, seed=11)
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert not [token for token in tokens.values() if token in text]
    assert "wrong-token" not in text
    assert "suit" not in text and "rank" not in text
