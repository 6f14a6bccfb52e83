"""A reload in the middle of a game comes back to the same seat, with the same hand."""

from __future__ import annotations

import pytest

from testing.browser.cards import cards_of
from testing.browser.secrets import http_reader
from testing.browser.table_page import TablePage, create_table

pytestmark = pytest.mark.browser


def test_a_reload_mid_game_returns_to_the_seat_with_its_hand(open_page, live_server):
    browsing = open_page("phone")
    game_id = create_table(
        browsing, "trick_and_snipers", 3, ["bot:basic", "bot:basic"], turn_seconds=300
    )
    table = TablePage(browsing)
    table.wait_for_my_turn_or_the_end()
    browsing.page.wait_for_selector("#countdown", state="visible", timeout=5_000)
    table.make_one_move(table.wait_for_my_turn_or_the_end())  # the pass
    table.make_one_move(table.wait_for_my_turn_or_the_end())  # a card in the first trick
    situation = table.wait_for_my_turn_or_the_end()
    assert situation["status"] == "active", "the game ended before the reload"
    before = sorted(table.hand())
    token = browsing.credential(game_id)

    browsing.page.reload()
    after = table.wait_for_table(game_id, seat=0)
    assert after["seat"] == 0
    browsing.page.wait_for_selector("#hand button.card")
    mine = http_reader(live_server.url)(f"/games/{game_id}", token)
    table.wait_for_version(mine["version"])
    assert sorted(table.hand()) == sorted(cards_of(mine["you"]["hand"])) == before
    assert browsing.credential(game_id) == token
    table.wait_for_my_turn_or_the_end()
    browsing.page.wait_for_selector("#countdown", state="visible", timeout=5_000)
    # And it plays on from there.
    move = table.make_one_move(table.wait_for_my_turn_or_the_end())
    assert move.detail in before
