"""Accessibility, checked by axe-core (from npm, test-only: tests/browser/axe): no serious or
critical violation on the lobby, a table of every game, the replay viewer, the result screen, a
guide, the glossary, my tables, the player's page, "Play now" (its form and its search) and the
leaderboards (with players, and empty), in English and in French."""

from __future__ import annotations

import pytest
import requests

from domain.games import GAME_TYPES
from events.ratings import PROVISIONAL_GAMES
from testing.browser.finished import finished_bot_game
from testing.browser.table_page import TablePage, create_table
from tests.browser.accessibility import serious_violations
from tests.browser.test_leaderboard import write_rating
from tests.browser.test_play_now import ask
from tests.browser.test_players import make_player

pytestmark = pytest.mark.browser

# Every registered game, at three seats where it allows them.
GAMES = {game.id: min(max(3, game.min_players), game.max_players) for game in GAME_TYPES.values()}
LOCALES = ["en-GB", "fr-FR"]


def assert_accessible(browsing, axe: str, what: str) -> int:
    found = serious_violations(browsing.page, axe)
    assert not found, f"{what}: {found}"
    return len(found)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_lobby_guides_and_glossary_have_no_serious_violation(open_page, axe, locale):
    browsing = open_page("phone", locale)
    browsing.goto("")
    browsing.page.wait_for_selector("#game-types li[data-type] a.how-to-play")
    assert_accessible(browsing, axe, "the lobby")
    browsing.goto("#/rules/st_patrick")
    browsing.page.wait_for_selector("#guide .guide-body h2")
    assert_accessible(browsing, axe, "a guide")
    browsing.goto("#/glossary")
    browsing.page.wait_for_selector("#glossary .entry")
    assert_accessible(browsing, axe, "the glossary")


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_table_of_each_game_has_no_serious_violation(open_page, axe, game_type):
    french = list(GAMES).index(game_type) % 2 == 0  # every other game read in French
    browsing = open_page("desktop", "fr-FR" if french else None)
    create_table(browsing, game_type, GAMES[game_type], ["bot:basic"] * (GAMES[game_type] - 1))
    table = TablePage(browsing)
    table.make_one_move(table.wait_for_my_turn_or_the_end())  # a table in play, not just dealt
    table.wait_for_my_turn_or_the_end()
    browsing.page.click("#how-to-play summary")
    browsing.page.wait_for_selector("#how-to-play .guide-body h3")
    assert_accessible(browsing, axe, f"a {game_type} table")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_replay_viewer_and_the_result_screen_have_no_serious_violation(
    open_page, live_server, axe, locale
):
    game = finished_bot_game(live_server.url, "saint_poker")
    browsing = open_page("desktop", locale)
    browsing.goto(f"#/replay/{game['id']}/20")
    browsing.page.wait_for_selector("#verified[data-verified=true]", timeout=20_000)
    assert_accessible(browsing, axe, "the replay viewer")
    browsing.goto(f"#/games/{game['id']}")
    browsing.page.wait_for_selector("#result svg#chart")
    assert_accessible(browsing, axe, "the result screen")


@pytest.mark.parametrize("locale", LOCALES)
def test_my_tables_and_the_players_page_have_no_serious_violation(open_page, axe, locale):
    browsing = open_page("phone", locale)
    game_id = create_table(browsing, "trick_and_snipers", 3, ["open", "bot:basic"])
    browsing.goto("")
    browsing.page.wait_for_selector(f'#mine li[data-game="{game_id}"]')
    assert_accessible(browsing, axe, "the lobby of a player")
    browsing.goto("#/tables")
    browsing.page.wait_for_selector(f'#mine li[data-game="{game_id}"]')
    assert_accessible(browsing, axe, "my tables")
    browsing.goto("#/me")
    browsing.page.click("#show-key")
    browsing.page.fill("#key-in", "pk_" + "Z" * 43)  # nobody's: the page says so
    browsing.page.click("#import-key")
    browsing.page.wait_for_selector("#import-problem:not([hidden])")
    assert_accessible(browsing, axe, "the player's page")


@pytest.mark.parametrize("locale", LOCALES)
def test_play_now_and_the_leaderboards_have_no_serious_violation(
    open_page, live_server, axe, locale
):
    browsing = open_page("phone", locale)
    player = make_player(browsing, "Ada")
    write_rating(live_server, "trick_and_snipers", player["id"], 100.0, PROVISIONAL_GAMES)
    page = browsing.page
    page.wait_for_selector("#queue-form #queue-type")
    assert_accessible(browsing, axe, "play now")
    try:
        ask(page, "ouroboros_trick", [3], rated=False, bots_after=None)  # a pool of its own
        page.click("#queue-join")
        page.wait_for_selector("#queue-waiting:not([hidden])")
        page.wait_for_selector("#queue-waited:not(:empty)")
        assert_accessible(browsing, axe, "play now, searching")
        page.click("#queue-cancel")
        page.wait_for_selector("#queue-form:not([hidden])")
    finally:
        auth = {"Authorization": f"Bearer {player['key']}"}
        requests.delete(f"{live_server.url}/me/queue", headers=auth, timeout=10)
    browsing.goto("#/leaderboard/trick_and_snipers")
    row = '#board-rows tr[data-player="{}"]'.format(player["id"])
    page.wait_for_selector(row)
    assert_accessible(browsing, axe, "a leaderboard")
    browsing.goto("#/leaderboard/saint_poker")  # nobody ranked: its empty state
    page.wait_for_selector("#board-empty:not([hidden])")
    assert_accessible(browsing, axe, "an empty leaderboard")
