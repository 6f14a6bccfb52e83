"""The web client draws a game it has never heard of from GET /game-types alone: High Card,
defined in tests/ and registered by one line, gets a table (its cards, its figures, no chart
borrowed from another game) and a rules page from its own folder; given words of its own, its
table and its log speak them, with no edit to the client."""

from __future__ import annotations

import dataclasses
import uuid

import pytest
import requests

from domain.games import GAME_TYPES
from testing.browser.table_page import TablePage
from tests.fifth_game.high_card import GAME

pytestmark = pytest.mark.browser


WORDS = {
    "en": {
        "game.name": "High Card!",
        "phase.playing": "racing to the top",
        "log.TrickTaken": "{seat:who} took the trick: {cards:cards}.",
    },
    "fr": {
        "game.name": "Carte haute",
        "phase.playing": "course au sommet",
        "log.TrickTaken": "{seat:who} prend le pli : {cards:cards}.",
    },
}


@pytest.fixture()
def registered(monkeypatch):
    monkeypatch.setitem(GAME_TYPES, GAME.id, GAME)  # the one registration line


@pytest.fixture()
def registered_with_words(monkeypatch):
    monkeypatch.setitem(GAME_TYPES, GAME.id, dataclasses.replace(GAME, words=WORDS))


def _api(live_server, method, path, token=None, **kwargs):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if method == "POST":
        headers["Idempotency-Key"] = str(uuid.uuid4())
    response = requests.request(method, f"{live_server.url}{path}", headers=headers, timeout=10,
                                **kwargs)  # fmt: skip
    assert response.status_code < 300, response.text
    return response.json()


def _play_to_the_end(live_server, game_id, tokens):
    for _ in range(8):
        for token in tokens.values():
            mine = _api(live_server, "GET", f"/games/{game_id}", token)
            if mine["status"] == "finished":
                return
            for template in mine["you"]["legal_actions"]:
                card = template["cards"][0]
                _api(live_server, "POST", f"/games/{game_id}/actions", token,
                     json={"type": "play_card", "card": card})  # fmt: skip
    raise AssertionError("High Card did not end in 4 plays")


def test_a_fifth_game_gets_a_table_with_its_cards_and_figures_and_no_borrowed_chart(
    registered, live_server, open_page
):
    body = {"type": "high_card", "seats": [{"kind": "human", "name": "Ada"},
                                           {"kind": "human", "name": "Bob"}]}  # fmt: skip
    created = _api(live_server, "POST", "/games", json=body)
    game_id = created["id"]
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    browsing = open_page("desktop")
    browsing.hold_seat(game_id, 0, tokens[0], "Ada")
    browsing.goto(f"#/games/{game_id}")
    table = TablePage(browsing)
    table.wait_for_table(game_id, seat=0)
    page = browsing.page
    page.wait_for_selector('#table button.card[data-suit="stars"]')
    assert page.locator('#table button.card[data-suit="stars"]').count() == 2
    assert page.locator(".figure.hand_count").count() == 2

    _play_to_the_end(live_server, game_id, tokens)
    page.wait_for_selector("#winners", timeout=15000)
    assert page.locator("#chart").count() == 0  # High Card has no chart, and borrows none


def test_a_fifth_game_gets_a_rules_page_from_its_own_folder(registered, open_page):
    browsing = open_page("desktop")
    browsing.goto("#/rules/high_card")
    loaded = '#guide[data-game="high_card"] .guide-body[aria-busy="false"] p'
    browsing.page.wait_for_selector(loaded)  # the guide, not its "Loading" placeholder
    guide = browsing.page.inner_text("#guide")
    assert "High Card" in guide and "two-player game" in guide


@pytest.mark.parametrize(("locale", "name", "phase", "taken"), [
    ("en-GB", "High Card!", "racing to the top", " took the trick: "),
    ("fr-FR", "Carte haute", "course au sommet", " prend le pli : "),
])  # fmt: skip
def test_a_fifth_game_s_own_words_name_it_on_its_table_and_in_its_log(
    registered_with_words, live_server, open_page, locale, name, phase, taken
):
    body = {"type": "high_card", "seats": [{"kind": "human", "name": "Ada"},
                                           {"kind": "human", "name": "Bob"}]}  # fmt: skip
    created = _api(live_server, "POST", "/games", json=body)
    game_id = created["id"]
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    browsing = open_page("desktop", locale)
    browsing.hold_seat(game_id, 0, tokens[0], "Ada")
    browsing.goto(f"#/games/{game_id}")
    TablePage(browsing).wait_for_table(game_id, seat=0)
    page = browsing.page
    title = "(words) => words.every((w) => document.querySelector('#table-title').innerText"
    page.wait_for_function(title + ".includes(w))", arg=[name, phase])
    _play_to_the_end(live_server, game_id, tokens)
    page.wait_for_selector("#winners", timeout=15000)
    lines = page.locator('#log li[data-type="TrickTaken"]').all_inner_texts()
    assert len(lines) == 2 and all(taken in line for line in lines), lines
