"""French and English: the page follows the browser's language, can be switched in the header,
keeps the choice (localStorage), sets `<html lang>`, says numbers and plurals right in both, and
words a refused move by the problem's `code` in the reader's language (the API's `detail` stays
English and is not shown)."""

from __future__ import annotations

import pytest

from testing.browser.table_page import TablePage
from tests.browser.test_live_updates import pass_for, three_humans

pytestmark = pytest.mark.browser

SAY = """async ([lang, game, key, args]) => {
  const i18n = await import('/play/assets/i18n.js');
  await i18n.useLanguage(lang);
  return i18n.inGame(game, () => i18n.t(key, ...args));
}"""


def test_the_page_follows_the_browser_then_the_reader_s_choice_which_is_kept(open_page):
    browsing = open_page("phone", "fr-CA")
    browsing.goto("")
    page = browsing.page
    page.wait_for_selector("#game-types li[data-type]")
    assert browsing.language() == "fr"
    assert page.text_content("#nav a[data-t='nav.lobby']") == "Salon"
    assert (page.text_content("#lobby h1") or "").startswith("Prenez place")

    page.select_option("#language", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_selector("#game-types li[data-type]")
    assert page.text_content("#nav a[data-t='nav.lobby']") == "Lobby"
    assert (page.text_content("#lobby h1") or "").startswith("Sit down")

    page.reload()  # the choice is kept, though the browser still says French
    page.wait_for_selector("#game-types li[data-type]")
    assert browsing.language() == "en"
    assert page.evaluate("() => localStorage.getItem('cardroom.lang')") == "en"


SAID = [  # (language, key, arguments, what the page says), with a game's words (game, key)
    ("en", ("saint_poker", "figure.points"), [1], "1 point"),
    ("en", ("saint_poker", "figure.points"), [2], "2 points"),
    ("en", ("saint_poker", "figure.points"), [0], "0 points"),
    ("fr", ("saint_poker", "figure.points"), [0], "0 point"),
    ("fr", ("saint_poker", "figure.points"), [1], "1 point"),
    ("fr", ("saint_poker", "figure.points"), [2], "2 points"),
    ("en", ("st_patrick", "figure.relics"), [1], "1 relic"),
    ("fr", ("trick_and_snipers", "figure.victory_points"), [2], "2 points de victoire"),
    ("en", ("st_patrick", "figure.life"), [12000], "12,000 life"),
    ("fr", ("st_patrick", "figure.life"), [12000], "12\u202f000 points de vie"),
    (
        "fr",
        ("ouroboros_trick", "why.end.ouro"),
        [["Ada", "Bob"]],
        "Ada et Bob sont tombés"
        " à court de cartes (ni main ni réserve) et ont perdu ; tous les autres gagnent.",
    ),
    (
        "fr",
        ("ouroboros_trick", "why.end.ouro"),
        [["Ada"]],
        "Ada est tombé à court de cartes"
        " (ni main ni réserve) et a perdu ; tous les autres gagnent.",
    ),
    ("en", ("high_card", "phase.playing"), [], "phase.playing"),  # no words: the key itself
    ("en", ("st_patrick", "figure.tricks_won"), [1], "1 trick"),  # the page's own text
    ("en", "card", [{"suit": "hearts", "rank": 12}], "queen of hearts"),
    ("fr", "card", [{"suit": "hearts", "rank": 12}], "dame de cœur"),
    ("fr", "card", [{"suit": "red", "rank": 7}], "7 rouge"),
    ("fr", "hand", ["full house, kings over fives"], "full aux rois par les 5"),
    ("fr", "status.waiting", [1], "En attente de 1 joueur de plus."),
    ("en", "status.waiting", [2], "Waiting for 2 more players to join."),
    ("en", "queue.waited", [1], "Waiting for 1 second."),
    ("en", "queue.waited", [2], "Waiting for 2 seconds."),
    ("fr", "queue.waited", [0], "Attente : 0 seconde."),
    ("fr", "queue.waited", [61], "Attente : 61 secondes."),
    ("fr", "queue.size", [3], "3 joueurs"),
    ("en", "board.display", [1234.5678], "1,234.6"),
    ("fr", "board.display", [9.7], "9,7"),
    ("fr", "board.bot", ["strong"], "Robot fort"),
    ("en", "figure.relics", [1], "figure.relics"),  # a game's word, with no game: not said
]


def in_game(key: str | tuple[str, str]) -> tuple[str | None, str]:
    return key if isinstance(key, tuple) else (None, key)


def test_numbers_and_plurals_are_right_in_both_languages(open_page):
    browsing = open_page("desktop")
    browsing.goto("")
    browsing.page.wait_for_selector("#game-types li[data-type]")
    wrong = [
        (lang, key, args, said, shown)
        for lang, key, args, said in SAID
        if (shown := browsing.page.evaluate(SAY, [lang, *in_game(key), args])) != said
    ]
    assert not wrong, wrong


def test_a_refused_move_is_worded_by_its_code_in_the_reader_s_language(open_page, live_server):
    url = live_server.url
    game_id, tokens = three_humans(url)
    browsing = open_page("phone", "fr-FR")
    browsing.page.route("**/events/stream*", lambda route: route.abort())  # no live updates
    browsing.hold_seat(game_id, 0, tokens[0], "Ada")
    browsing.goto(f"#/games/{game_id}")
    table = TablePage(browsing)
    table.wait_for_table(game_id, seat=0)
    table.page.wait_for_function(
        "(v) => document.querySelectorAll('#log li').length >= v", arg=table.version()
    )
    pass_for(url, game_id, tokens[1])  # the page does not see this: its move will conflict
    table.make_one_move(table.wait_for_my_turn_or_the_end())
    problem = browsing.page.locator("#problem")
    problem.wait_for(state="visible")
    said = problem.text_content() or ""
    posts = [r for r in browsing.record.responses if r.url.endswith("/actions")]
    assert posts and posts[0].body["code"] == "version-conflict"
    assert said.startswith("La partie a avancé"), said
    assert posts[0].body["detail"] not in said  # the English detail is not shown
