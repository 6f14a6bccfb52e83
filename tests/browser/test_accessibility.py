"""Accessibility, checked by axe-core (from npm, test-only: tests/browser/axe): no serious or
critical violation on the lobby, a table of every game, the replay viewer, the result screen, a
guide, the glossary, my tables and the player's page, in English and in French."""

from __future__ import annotations

import pytest

from testing.browser.finished import finished_bot_game
from testing.browser.table_page import TablePage, create_table
from tests.browser.accessibility import serious_violations

pytestmark = pytest.mark.browser

GAMES = {"st_patrick": 3, "ouroboros_trick": 3, "trick_and_snipers": 3, "saint_poker": 3}
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
    browsing = open_page("desktop", "fr-FR" if game_type in ("st_patrick", "saint_poker") else None)
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
