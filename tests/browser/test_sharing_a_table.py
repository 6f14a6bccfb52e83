"""Two browsers at one table through a join link: the creator shares its open seat, the other
browser joins it, and each sees the other's moves."""

from __future__ import annotations

import time

import pytest

from testing.browser.cards import card_of
from testing.browser.secrets import all_events, http_reader
from testing.browser.table_page import TablePage, create_table, join_by_link
from tests.browser.leaks import assert_no_secret_card_shown

pytestmark = pytest.mark.browser
WAIT = 20.0


def test_a_second_browser_joins_through_the_share_link_and_both_see_each_other_s_moves(
    open_page, live_server
):
    ada_browsing, bea_browsing = open_page("desktop"), open_page("phone")
    game_id = create_table(ada_browsing, "trick_and_snipers", 3, ["open", "bot:basic"], "Ada")
    ada, bea = TablePage(ada_browsing), TablePage(bea_browsing)
    assert ada.wait_for_table(game_id, seat=0)["status"] == "waiting"
    link = ada_browsing.page.get_attribute('#share a.share-link[data-seat="1"]', "href")
    assert link and f"{live_server.url}/play#/join/{game_id}/1/" in link, link

    ada_browsing.goto("")  # Ada's lobby lists the table as hers, Bea's as one to join
    ada_browsing.page.wait_for_selector(f'#mine li[data-game="{game_id}"] a', state="attached")
    bea_browsing.goto("")
    bea_browsing.page.wait_for_selector(f'#waiting li[data-game="{game_id}"]', state="attached")
    ada_browsing.page.click(f'#mine li[data-game="{game_id}"] a')
    ada.wait_for_table(game_id, seat=0)

    assert join_by_link(bea_browsing, link, "Bea") == game_id
    assert bea.wait_for_table(game_id, seat=1)["seat"] == 1
    bea_browsing.page.wait_for_selector('#table[data-status="active"]')
    ada_browsing.page.wait_for_selector('#table[data-status="active"]')
    assert len(bea.hand()) == len(ada.hand()) == 12
    assert "Bea" in (ada_browsing.page.text_content("#seats") or "")
    assert "Ada" in (bea_browsing.page.text_content("#seats") or "")
    assert not ada_browsing.page.locator('#share a.share-link[data-seat="1"]').count()
    for browsing in (ada_browsing, bea_browsing):
        assert_no_secret_card_shown(browsing, live_server.url, live_server.database_url, game_id)

    for table in (ada, bea):  # both pass their four cards by clicks
        table.make_one_move(table.wait_for_my_turn_or_the_end())
    for table in (ada, bea):  # a bot's pass may show before ours is answered: wait for ours
        assert [r.status for r in table.answered_actions(1)] == [201]
    read = http_reader(live_server.url)
    passed = {
        e["seat"]: e["version"] for e in all_events(read, game_id) if e["type"] == "CardsPassed"
    }
    assert set(passed) >= {0, 1}
    _until(lambda: passed[1] in ada.log_versions(), "Ada's log shows Bea's pass")
    _until(lambda: passed[0] in bea.log_versions(), "Bea's log shows Ada's pass")
    version = _settled_version(read, game_id)
    _until(lambda: ada.version() == bea.version() == version, "both pages show the same version")
    for browsing in (ada_browsing, bea_browsing):
        assert_no_secret_card_shown(browsing, live_server.url, live_server.database_url, game_id)

    # The first trick: whoever is to play, the other page shows the card arrive.
    game = read(f"/games/{game_id}", None)
    mover = {0: ada, 1: bea}.get(game["to_act"][0])
    if mover is not None:
        move = mover.make_one_move(mover.wait_for_my_turn_or_the_end())
        other = bea if mover is ada else ada
        played = [e for e in all_events(read, game_id) if e["type"] == "CardPlayed"]
        mine = [e for e in played if card_of(e["data"]["card"]) == move.detail]
        assert mine, (move, played)
        _until(lambda: mine[0]["version"] in other.log_versions(), "the other page logs the card")


def _settled_version(read, game_id: str) -> int:
    """The game's version once it waits for one of the two people (bots have moved)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        game = read(f"/games/{game_id}", None)
        if set(game["to_act"]) & {0, 1}:
            return game["version"]
        time.sleep(0.1)
    raise AssertionError(f"the game never waited for a person: {game['to_act']}")


def _until(condition, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout:.0f} s: {what}")
