"""What players are told never shows a card: a whole game of players through their keys, and
after every move each player's inbox (`GET /me/games`) and notices (`GET /me/stream`), read
as their keys read them, show no card at all (tests/api/knowledge.py finds every card in any
JSON: as objects, or spelled out in text)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tests.api.knowledge import cards_shown
from tests.api.play import auth, create_game
from tests.api.test_players import act_first_legal, new_player


@pytest.fixture()
def short_streams(app):
    """Streams end within 0.05 s, so the test client (which buffers a body) can read them."""
    services = app.extensions["cardroom"]
    kept = services.settings
    services.settings = dataclasses.replace(kept, stream_max_seconds=0.05)
    yield
    services.settings = kept


def notices(client, key: str) -> list[dict]:
    response = client.get("/me/stream", headers=auth(key))
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_data(as_text=True)
    response.close()  # gives the stream's place back to the client's cap
    return [json.loads(line[len("data: ") :]) for line in body.splitlines()
            if line.startswith("data: ")]  # fmt: skip


@pytest.mark.parametrize("game_type", ["trick_and_snipers", "st_patrick", "saint_poker"])
def test_a_players_inbox_and_notices_never_show_a_card(client, short_streams, game_type):
    players = [new_player(client, name) for name in ("Ada", "Bob", "Cy")]
    seats = [{"kind": "human", "player": "me"}] + [
        {"kind": "open", "player": p["id"]} for p in players[1:]
    ]
    game = create_game(client, game_type, seats, headers=auth(players[0]["key"]))
    for seat, player in enumerate(players[1:], start=1):
        joined = client.post(f"/games/{game['id']}/seats/{seat}/join", json={},
                             headers=auth(player["key"]))  # fmt: skip
        assert joined.status_code == 201
    keys, rng, told = [p["key"] for p in players], random.Random(3), 0
    for _ in range(12):
        state = client.get(f"/games/{game['id']}").get_json()
        if state["status"] == "finished" or not state["to_act"]:
            break
        act_first_legal(client, game["id"], keys[state["to_act"][0]], rng)
        for key in keys:
            inbox = client.get("/me/games", headers=auth(key)).get_json()
            said = notices(client, key)
            told += len(said)
            assert list(cards_shown(inbox)) == [] and list(cards_shown(said)) == []
    assert told > 0
