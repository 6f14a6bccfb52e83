"""A strong bot seat plays through the API and the workers: listed among the levels, thinking
within BOT_BUDGET_MS on the worker, to the end of the game."""

from __future__ import annotations

from domain.games import GAME_TYPES
from tests.api.play import create_game, wait_for


def test_every_game_lists_the_strong_level_after_basic(client):
    types = client.get("/game-types").get_json()
    levels = {t["id"]: t["bot_levels"] for t in types}
    for game_id in GAME_TYPES:
        assert levels[game_id].index("strong") == levels[game_id].index("basic") + 1


def test_a_strong_seat_plays_a_game_to_the_end_on_the_workers(client, worker):
    seats = [{"kind": "bot", "level": level} for level in ("strong", "basic", "basic")]
    game = create_game(client, "trick_and_snipers", seats)
    final = wait_for(client, game["id"], lambda g: g["status"] == "finished", timeout=90)
    assert final["seats"][0]["level"] == "strong"
    assert sorted(final["result"]["winners"] + final["result"]["losers"]) == [0, 1, 2]
    log = client.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    assert any(e["type"] == "CardPlayed" and e["data"]["seat"] == 0 for e in log)
