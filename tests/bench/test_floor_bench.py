"""bench/floor.py's floor: the plain one answers with its own small bodies, the floor[GAME]
sides with the bodies recorded from Cardroom, on a real Postgres."""

from __future__ import annotations

import pytest

from bench.floor import nearest_mean_size
from bench.floor_app import create_app, create_schema

VIEWS = {
    "st_patrick": {
        "view": {"type": "st_patrick", "you": {"seat": 1, "hand": ["7H", "QS"]}, "version": 9},
        "answer": {"version": 9, "events": [{"type": "card_played"}], "game": {"status": "x"}},
    }
}


@pytest.fixture()
def floor(empty_database_url):
    create_schema(empty_database_url)
    return create_app(empty_database_url, 2, VIEWS).test_client()


def test_the_plain_floor_answers_with_the_version_alone(floor):
    game = floor.post("/games", json={}).get_json()["id"]

    acted = floor.post(f"/games/{game}/actions", json={"type": "play"})
    shown = floor.get(f"/games/{game}").get_json()

    assert (acted.status_code, acted.get_json()) == (201, {"version": 1})
    assert shown == {"id": game, "version": 1}


def test_a_floor_with_a_games_bodies_answers_with_them_at_its_own_version(floor):
    game = floor.post("/views/st_patrick/games", json={}).get_json()["id"]

    acted = floor.post(f"/views/st_patrick/games/{game}/actions", json={"type": "play"})
    shown = floor.get(f"/views/st_patrick/games/{game}").get_json()

    recorded = VIEWS["st_patrick"]
    assert acted.get_json() == {**recorded["answer"], "version": 1}
    assert shown == {**recorded["view"], "id": game, "version": 1}


def test_a_game_type_without_recorded_bodies_has_no_floor(floor):
    game = floor.post("/games", json={}).get_json()["id"]

    assert floor.get(f"/views/saint_poker/games/{game}").status_code == 404
    assert floor.post(f"/views/saint_poker/games/{game}/actions", json={}).status_code == 404


def test_the_recorded_pair_is_the_one_nearest_the_mean_size():
    small = ({"a": ""}, {})
    middle = ({"a": "x" * 50}, {"b": 1})
    large = ({"a": "x" * 200}, {})

    assert nearest_mean_size([small, middle, large]) == middle
