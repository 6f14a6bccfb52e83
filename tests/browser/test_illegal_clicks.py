"""A card the page shows disabled cannot be sent: clicking it (forced, or a dispatched click
event) posts nothing and changes nothing; while another seat is to act no card is enabled."""

from __future__ import annotations

import random
import time
import uuid

import pytest
import requests

from domain.games import get_game_type
from testing.browser.cards import card_json, cards_of
from testing.browser.table_page import TablePage

pytestmark = pytest.mark.browser


def _api(live_server, method: str, path: str, token: str | None = None, **kw) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.request(
        method, f"{live_server.url}{path}", headers=headers, timeout=10, **kw
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


def _wait_for(live_server, game_id: str, token: str, predicate, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        game = _api(live_server, "GET", f"/games/{game_id}", token)
        if predicate(game) or time.monotonic() > deadline:
            return game
        time.sleep(0.05)


def _disabled_clicks(table: TablePage, selector: str) -> None:
    card = table.page.locator(selector).first
    card.click(force=True, timeout=5_000)
    card.dispatch_event("click")
    table.page.wait_for_timeout(500)  # time for a (wrong) request to be made


def test_a_disabled_card_sends_nothing_and_no_card_is_enabled_out_of_turn(open_page, live_server):
    game = get_game_type("trick_and_snipers")
    deck = list(game.cards_to_deal(game.new_game(3, game.options)))
    random.Random(7).shuffle(deck)
    body = {
        "type": "trick_and_snipers",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"},
                  {"kind": "bot", "level": "basic"}],
        "options": {"first_leader": 1, "deck": [c.to_json() for c in deck]},
    }  # fmt: skip
    # Made through the API for the fixed deck; the creation key is a random UUID.
    key = {"Idempotency-Key": str(uuid.uuid4())}
    response = requests.post(f"{live_server.url}/games", json=body, headers=key, timeout=10)
    assert response.status_code == 201, response.text
    created = response.json()
    game_id = created["id"]
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    browsing = open_page("desktop")
    browsing.hold_seat(game_id, 0, tokens[0], "Ada")
    browsing.goto(f"#/games/{game_id}")
    table = TablePage(browsing)
    table.wait_for_table(game_id, seat=0)

    # Passing: every card of ours may be passed; Bob (the test) passes through the API.
    bob = _api(live_server, "GET", f"/games/{game_id}", tokens[1])["you"]
    _api(live_server, "POST", f"/games/{game_id}/actions", tokens[1],
         json={"type": "pass_cards", "cards": bob["hand"][:4]})  # fmt: skip
    table.make_one_move(table.wait_for_my_turn_or_the_end())

    # Bob leads the first trick (first_leader 1): until he does, nothing of ours is usable.
    mine = _wait_for(live_server, game_id, tokens[0], lambda g: g["phase"] == "playing")
    table.wait_for_version(mine["version"])
    assert mine["to_act"] == [1]
    situation = table.situation()
    assert situation["legal"] == 0 and situation["enabledCards"] == 0, situation
    posts, version, hand = len(browsing.record.posts_to("/actions")), table.version(), table.hand()
    _disabled_clicks(table, "#hand button.card")
    assert len(browsing.record.posts_to("/actions")) == posts, "a disabled card was sent"
    assert (table.version(), table.hand()) == (version, hand)

    # Bob leads a suit Ada holds, with other suits beside it: only that suit is legal for her.
    ada_hand = cards_of(mine["you"]["hand"])
    bob_hand = _api(live_server, "GET", f"/games/{game_id}", tokens[1])["you"]["hand"]
    suits = {suit for suit, _ in ada_hand}
    lead = next(c for c in bob_hand if c["suit"] in suits)
    _api(live_server, "POST", f"/games/{game_id}/actions", tokens[1],
         json={"type": "play_card", "card": lead})  # fmt: skip
    situation = table.wait_for_my_turn_or_the_end()
    mine = _api(live_server, "GET", f"/games/{game_id}", tokens[0])
    legal = cards_of(mine["you"]["legal_actions"][0]["cards"])
    assert all(card[0] == lead["suit"] for card in legal) and legal != ada_hand
    cards = table.cards()
    assert {(c["suit"], c["rank"]) for c in cards if c["legal"] and not c["disabled"]} == legal
    assert all(c["disabled"] for c in cards if (c["suit"], c["rank"]) not in legal), cards
    posts, version, hand = len(browsing.record.posts_to("/actions")), table.version(), table.hand()
    _disabled_clicks(table, "#hand button.card[disabled]")
    assert len(browsing.record.posts_to("/actions")) == posts, "an illegal card was sent"
    assert (table.version(), table.hand()) == (version, hand)
    assert not (browsing.page.text_content("#problem") or "").strip()

    # A legal card is sent at once.
    move = table.make_one_move(situation)
    assert move.detail in legal
    assert len(browsing.record.posts_to("/actions")) == posts + 1
    played = _api(live_server, "GET", f"/games/{game_id}/events?after={version}")["events"]
    ours = [e["data"]["card"] for e in played if e["type"] == "CardPlayed" and e["seat"] == 0]
    assert ours == [card_json(move.detail)]
