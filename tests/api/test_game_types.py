"""GET /game-types says what a client needs to draw a table of each game (its cards, the
figures by each seat, its chart, its events), so the web client keeps no table of games."""

from __future__ import annotations

from pathlib import Path

from domain.games import GAME_TYPES
from domain.tables.table import TABLE_EVENTS

STATIC_GAMES = Path(__file__).resolve().parents[2] / "api" / "web" / "static" / "play" / "games"


def test_each_game_type_publishes_its_cards_figures_chart_and_events(client) -> None:
    published = {game["id"]: game for game in client.get("/game-types").get_json()}
    assert list(published) == list(GAME_TYPES)
    for game_id, game in published.items():
        registered = GAME_TYPES[game_id]
        assert game["suits"] == list(registered.suits) and game["ranks"] == list(registered.ranks)
        assert set(game["event_types"]) == set(TABLE_EVENTS) | set(registered.events)
        assert {"field": "hand_count", "term": "hand"} in game["figures"]
    poker, patrick = published["saint_poker"], published["st_patrick"]
    assert poker["face_ranks"] == [11, 12, 13, 14] and poker["suits"][0] == "spades"
    assert patrick["face_ranks"] == [] and patrick["figures"][0] == {
        "field": "life",
        "term": "life",
    }
    assert patrick["chart"] == {"figure": "life", "axis": "round"}


def test_each_game_type_publishes_its_own_words_and_its_view_module(client) -> None:
    published = {game["id"]: game for game in client.get("/game-types").get_json()}
    for game_id, game in published.items():
        assert game["words"] == GAME_TYPES[game_id].words
        module = STATIC_GAMES / f"{game_id}.js"
        assert game["view"] == (f"/play/assets/games/{game_id}.js" if module.is_file() else None)
    patrick = published["st_patrick"]["words"]
    assert patrick["fr"]["game.name"] == "Saint Patrick"
    assert patrick["en"]["figure.relics"] == "{0} {0|relic|relics}"
