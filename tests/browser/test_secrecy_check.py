"""The secrecy check itself can fail: a card the seat may not know, planted in the page by the
test (as text, as an aria-label, as data attributes), is found and named."""

from __future__ import annotations

import json

import pytest

from testing.browser.cards import card_name
from testing.browser.secrets import http_reader, secret_cards
from testing.browser.table_page import TablePage, create_table
from tests.browser.leaks import assert_no_secret_card_shown

pytestmark = pytest.mark.browser

PLANTS = {
    "text": "(card) => { const p = document.createElement('p'); p.textContent = card.name;"
    " document.body.append(p); }",
    "aria-label": "(card) => { const s = document.createElement('span');"
    " s.setAttribute('aria-label', card.name); document.body.append(s); }",
    "data attributes": "(card) => { const b = document.createElement('button');"
    " b.dataset.suit = card.suit; b.dataset.rank = card.rank; document.body.append(b); }",
}


@pytest.mark.parametrize("how", list(PLANTS))
def test_a_secret_card_planted_in_the_page_is_found(open_page, live_server, how):
    browsing = open_page("desktop")
    game_id = create_table(browsing, "trick_and_snipers", 3, ["bot:basic", "bot:basic"])
    TablePage(browsing).wait_for_table(game_id, seat=0)
    browsing.page.wait_for_selector("#hand button.card")
    check = assert_no_secret_card_shown(
        browsing, live_server.url, live_server.database_url, game_id
    )
    read = http_reader(live_server.url)
    secret = secret_cards(live_server.database_url, read, game_id, 0, browsing.credential(game_id))
    assert secret == check.secret and secret
    card = sorted(secret)[0]
    planted = {"suit": card[0], "rank": card[1], "name": card_name(card)}
    browsing.page.evaluate(PLANTS[how], planted)
    with pytest.raises(AssertionError) as failed:
        assert_no_secret_card_shown(browsing, live_server.url, live_server.database_url, game_id)
    assert f"{card[0]} {card[1]} in DOM" in str(failed.value), json.dumps(planted)
