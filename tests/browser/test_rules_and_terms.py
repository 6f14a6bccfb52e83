"""How to play, the glossary and the game terms: each game's guide is reachable from the lobby and
from the table, the glossary is reachable and readable by keyboard alone, and every game term on
a table explains itself on keyboard focus, on hover and on tap, and is described to assistive
technology."""

from __future__ import annotations

import pytest

from domain.games import GAME_TYPES
from testing.browser.table_page import TablePage, create_table

pytestmark = pytest.mark.browser

GAMES = tuple(GAME_TYPES)  # every registered game
FOCUSED = "() => [document.activeElement.id, document.activeElement.textContent.trim()]"
TIP_SHOWN = """(button) => getComputedStyle(button.nextElementSibling).display !== 'none'"""


def tab_until(page, test: str, limit: int = 40) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(test):
            return
    raise AssertionError(f"{limit} Tabs never reached {test}: at {page.evaluate(FOCUSED)}")


def test_the_glossary_is_reached_and_read_with_the_keyboard_alone(open_page):
    browsing = open_page("desktop")
    browsing.goto("")
    page = browsing.page
    page.wait_for_selector("#game-types li[data-type]")
    tab_until(page, "() => document.activeElement.id === 'glossary-link'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#glossary .entry")
    assert page.url.endswith("#/glossary")
    assert page.evaluate("() => document.activeElement.id") == "main"  # reading starts there
    entries = page.locator("#glossary .entry")
    assert entries.count() >= 30
    assert "snipe" in (page.text_content("#term-snipe") or "").lower()
    tab_until(page, "() => !!document.activeElement.closest('#glossary')")  # and into it


@pytest.mark.parametrize("game_type", GAMES)
def test_each_game_s_guide_opens_from_the_lobby_in_the_page_s_language(open_page, game_type):
    browsing = open_page("phone", "fr-FR")
    browsing.goto("")
    page = browsing.page
    page.click(f'#game-types li[data-type="{game_type}"] a.how-to-play')
    page.wait_for_selector(f'#guide[data-game="{game_type}"] .guide-body h2')
    assert page.url.endswith(f"#/rules/{game_type}")
    assert (page.text_content("#guide h1") or "").startswith("Comment jouer")
    assert page.locator("#guide .guide-body h2").count() >= 3
    assert any(
        r.url.endswith(f"/play/guides/{game_type}.fr.md") and r.status == 200
        for r in browsing.record.responses
    )


def test_the_table_explains_its_terms_on_focus_hover_and_tap_and_opens_the_guide(open_page):
    browsing = open_page("desktop")
    create_table(browsing, "st_patrick", 3, ["bot:basic", "bot:basic"])
    table = TablePage(browsing)
    page = table.page
    table.wait_for_my_turn_or_the_end()  # the game waits for us alone: the table stays still
    page.wait_for_function("() => document.querySelectorAll('#seats .seat.to-act').length === 1")
    page.wait_for_selector("#seats button.term[data-term=life]")
    terms = page.eval_on_selector_all("#table button.term", "(bs) => bs.map((b) => b.dataset.term)")
    assert {"life", "relic", "bite", "hand", "phase", "round"} <= set(terms), terms

    described = page.evaluate(
        "() => { const b = document.querySelector('#seats button.term[data-term=life]');"
        " return document.getElementById(b.getAttribute('aria-describedby')).textContent; }"
    )
    assert "20" in described  # "everyone starts with 20 and the highest life at the end wins"

    tab_until(page, "() => document.activeElement.dataset.term === 'life'", 80)  # the keyboard
    life = page.locator(":focus")
    assert life.evaluate(TIP_SHOWN)
    page.keyboard.press("Escape")
    assert not life.evaluate(TIP_SHOWN)
    page.mouse.move(0, 0)
    relic = page.locator("#seats button.term[data-term=relic]").first
    relic.hover()  # the mouse
    assert relic.evaluate(TIP_SHOWN)
    page.mouse.move(0, 0)
    bite = page.locator("#seats button.term[data-term=bite]").first
    bite.click()  # a tap
    assert bite.get_attribute("aria-expanded") == "true" and bite.evaluate(TIP_SHOWN)

    page.click("#how-to-play summary")
    page.wait_for_selector("#how-to-play .guide-body h3")
    assert "relic" in (page.text_content("#how-to-play") or "").lower()
