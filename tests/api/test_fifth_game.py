"""Adding a game is a folder and one registration line: High Card, defined in tests/ alone, is
registered here, then played through the HTTP API (a human) and the workers (a bot) to its end,
and its log passes the audit. No other file of the project knows it: the spec its responses
and requests are held to is the one `make spec` would write with it registered."""

from __future__ import annotations

import dataclasses
import random

import pytest

from api import create_app
from api.spec_parts import spec_for
from domain.games import GAME_TYPES
from domain.kit.templates import action_from_template
from events.audit.verify import verify
from tests.api import spec
from tests.api.conftest import SpecCheckingClient
from tests.fifth_game.high_card import GAME
from tests.workers import in_process
from tests.workers.in_process import run_jobs
from workers.relay import relay_pending


@pytest.fixture()
def registered(monkeypatch):
    monkeypatch.setitem(GAME_TYPES, GAME.id, GAME)  # the one registration line


@pytest.fixture()
def generated_spec(registered, monkeypatch):
    """The spec checks hold responses to openapi.yaml as generated with High Card registered."""
    generated = spec_for(GAME_TYPES.values())
    monkeypatch.setattr(spec, "load_spec", lambda: generated)
    spec._validator.cache_clear()
    yield generated
    spec._validator.cache_clear()


@pytest.fixture()
def client_and_workers(generated_spec, settings, private_database_url, redis_url, monkeypatch):
    app = create_app(dataclasses.replace(settings, database_url=private_database_url))
    app.test_client_class = SpecCheckingClient
    urls = (private_database_url, redis_url)
    with in_process.worker_context(monkeypatch, *urls, "high-card") as workers:
        yield app.test_client(), workers
    app.extensions["cardroom"].pool.close()


def test_a_game_registered_by_one_line_plays_through_the_api_and_the_workers(
    client_and_workers,
):
    client, workers = client_and_workers
    assert GAME.id in [game["id"] for game in client.get("/game-types").get_json()]
    body = {"type": "high_card", "seats": [{"kind": "human", "name": "Ada"},
                                           {"kind": "bot", "level": "random"}]}  # fmt: skip
    assert spec.component_validator("CreateGame").is_valid(body)
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    game, token = created.get_json()["id"], created.get_json()["tokens"][0]["token"]
    headers, rng = {"Authorization": f"Bearer {token}"}, random.Random(5)
    for _ in range(20):
        mine = client.get(f"/games/{game}", headers=headers).get_json()
        if mine["status"] == "finished":
            break
        if mine["you"]["legal_actions"]:
            action = action_from_template(mine["you"]["legal_actions"][0], rng)
            assert spec.component_validator("Action").is_valid(action)
            played = client.post(f"/games/{game}/actions", json=action, headers=headers)
            assert played.status_code == 201, played.get_json()
        relay_pending()
        run_jobs(workers)
    assert mine["status"] == "finished" and sum(s["tricks_won"] for s in mine["seats"]) == 2
    card = mine["seats"][0]
    assert set(card) == {"seat", "name", "kind", "hand_count", "tricks_won"}

    report = client.get(f"/games/{game}/audit").get_json()
    assert report["rules_ok"] and report["chain_ok"] and report["state_matches"]
    export = client.get(f"/games/{game}/export").get_data(as_text=True)
    said: list[str] = []
    assert verify(export, said.append), said


def test_a_game_registered_by_one_line_is_published_with_its_cards_and_no_chart(
    generated_spec, client
):
    published = {game["id"]: game for game in client.get("/game-types").get_json()}
    high_card = published["high_card"]
    assert high_card["suits"] == ["stars"] and high_card["ranks"] == [1, 2, 3, 4]
    assert high_card["figures"] == [{"field": "hand_count", "term": "hand"}]
    assert high_card["chart"] is None and "TrickTaken" in high_card["event_types"]
    assert high_card["words"] == {} and high_card["view"] is None  # drawn from the above alone


def test_before_its_registration_line_the_game_does_not_exist(client):
    body = {"type": "high_card", "seats": [{"kind": "open"}] * 2}
    refused = client.post("/games", json=body)
    assert refused.status_code == 400 and "type" in refused.get_json()["errors"]
