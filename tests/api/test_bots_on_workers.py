"""Bots act on the RQ workers, reached through the outbox, with no client involved."""

from __future__ import annotations

import random

from tests.api.play import auth, create_game, play_one, tokens_of, wait_for


def test_a_table_of_four_bots_plays_itself_to_the_end(client, worker):
    bots = [{"kind": "bot", "level": level} for level in ("random", "basic", "basic", "random")]
    game = create_game(client, "trick_and_snipers", bots)
    final = wait_for(client, game["id"], lambda g: g["status"] == "finished", timeout=60)
    assert final["result"]["winners"]


def test_a_human_plays_by_the_api_while_the_bots_move_on_the_workers(client, worker):
    seats = [{"kind": "human", "name": "Hana"}] + [{"kind": "bot", "level": "basic"}] * 2
    game = create_game(client, "trick_and_snipers", seats)
    token, rng = tokens_of(game)[0], random.Random(5)
    while True:
        state = wait_for(
            client, game["id"], lambda g: g["status"] == "finished" or 0 in g["to_act"]
        )
        if state["status"] == "finished":
            break
        play_one(client, game["id"], 0, token, rng)
    mine = client.get(f"/games/{game['id']}", headers=auth(token)).get_json()
    assert mine["result"] == state["result"]
