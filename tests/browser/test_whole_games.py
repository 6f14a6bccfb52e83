"""One whole game of each type, created in the lobby and played by clicks alone against basic
bots until the result, its explanation and its chart show; during round 1 (right after the deal
and after some moves) the page never shows a card its seat may not know. Each game is played in
French (the browser's language) and in English."""

from __future__ import annotations

import pytest

from testing.browser.cards import card_name, card_of
from testing.browser.secrets import http_reader
from testing.browser.table_page import TablePage, create_table
from tests.browser.leaks import assert_no_secret_card_shown

pytestmark = pytest.mark.browser

GAMES = [  # phone and desktop in turn; St Patrick's one boolean option set through the form
    ("st_patrick", 3, "phone", {"first_lead_snake_allowed": False}),
    ("ouroboros_trick", 3, "desktop", {}),
    ("trick_and_snipers", 3, "phone", {}),
    ("saint_poker", 2, "desktop", {}),
]
OTHER = {"phone": "desktop", "desktop": "phone"}
CASES = [
    pytest.param(game, players, viewport, options, "fr", id=f"{game}-fr")
    for game, players, viewport, options in GAMES
] + [
    pytest.param(game, players, OTHER[viewport], options, "en", id=f"{game}-en")
    for game, players, viewport, options in GAMES
]
LOCALES = {"fr": "fr-FR", "en": "en-GB"}
YOUR_TURN = {"fr": "À vous", "en": "Your turn"}
CHECK_AFTER = {0, 1, 2, 4, 8}  # moves made when the secrecy is checked (round 1 only)


@pytest.mark.parametrize(("game_type", "players", "viewport", "checkboxes", "language"), CASES)
def test_a_whole_game_is_clicked_through_to_its_result_and_never_shows_a_secret_card(
    open_page, live_server, game_type, players, viewport, checkboxes, language
):
    browsing = open_page(viewport, LOCALES[language])
    bots = ["bot:basic"] * (players - 1)
    game_id = create_table(browsing, game_type, players, bots, checkboxes=checkboxes)
    table = TablePage(browsing)
    assert table.wait_for_table(game_id, seat=0)["seat"] == 0
    assert browsing.language() == language  # the page follows the browser's language
    read = http_reader(live_server.url)
    assert checkboxes.items() <= read(f"/games/{game_id}", None)["options"].items()
    checks = []

    def before_move(table: TablePage, situation: dict, moves: int) -> None:
        # Whenever the page offers us a move, it says so in words and marks our seat.
        status = table.page.text_content("#status-line") or ""
        assert YOUR_TURN[language] in status, f"#status-line says {status!r} on a move's offer"
        assert table.page.locator('#seats .seat.you.to-act[data-seat="0"]').count() == 1
        assert_legal_cards_are_the_server_s(table, read, game_id, situation)
        assert_labels_are_words(table)
        if moves == 0:  # each card button is named in words ("9 of clover", "queen of hearts")
            for card in table.cards("#table button.card"):
                expected = card_name((card["suit"], card["rank"]), language)
                assert expected in card["name"].lower(), f"{card} is not named {expected!r}"
        if moves in CHECK_AFTER and read(f"/games/{game_id}", None)["round"] == 1:
            check = assert_no_secret_card_shown(
                browsing, live_server.url, live_server.database_url, game_id
            )
            checks.append((moves, len(check.secret), check.cards_seen))

    table.play_to_the_end(before_move=before_move)

    assert [moves for moves, _, _ in checks][:2] == [0, 1], (
        f"the secrecy was not checked right after the deal and after a move: {checks}"
    )
    # Right after the deal there is always something to hide (later it may be nothing: a St
    # Patrick seat has seen every hand once the curses have passed them all round).
    assert checks[0][1] > 0, checks
    assert not table.problems, f"legal clicks met problems: {table.problems}"
    page = browsing.page
    assert page.is_visible("#result")
    assert page.locator("svg#chart polyline[data-seat]").count() == players
    game = read(f"/games/{game_id}", None)
    assert game["status"] == "finished"
    # The result names the winners the way the seats list names them ("Ada", "Bot 2", ...),
    # and says in the page's language which rule decided the game.
    shown = page.text_content("#result") or ""
    assert page.locator("#result .why-end li").count() >= 1, shown
    for seat in game["result"]["winners"]:
        name = (page.text_content(f'#seats .seat[data-seat="{seat}"] .name') or "").strip()
        assert name and name in shown, f"#result does not name winner {seat} ({name!r}): {shown!r}"
    print(
        f"\n{game_type}: {len(table.moves)} moves by clicks, {len(checks)} secrecy checks "
        f"(moves, secret cards, cards in the page): {checks}; problems shown: {table.problems}"
    )


def assert_legal_cards_are_the_server_s(table: TablePage, read, game_id: str, situation) -> None:
    """The cards the page lets us use are exactly those of the seat's legal action templates,
    and every other card button is disabled (checked when the page shows the API's version)."""
    token = table.browsing.credential(game_id)
    mine = read(f"/games/{game_id}", token)
    if mine["version"] != table.version():
        return  # a bot moved meanwhile (a simultaneous choice): the next move compares
    allowed = {
        card_of(card)
        for template in mine["you"]["legal_actions"]
        for card in template.get("cards", [])
    }
    cards = table.cards("#table button.card")  # the hand; Saint Poker's river and reveals
    usable = {(c["suit"], c["rank"]) for c in cards if c["legal"] and not c["disabled"]}
    assert usable == allowed, (
        f"the page lets us use {sorted(usable)}, the server allows {sorted(allowed)}"
    )
    wrong = [c for c in cards if (c["suit"], c["rank"]) not in allowed and not c["disabled"]]
    assert not wrong, f"cards not disabled though not usable now: {wrong}"


LABELS_JS = """() => ({
  title: document.querySelector('#table-title').textContent,
  phase: (document.querySelector('[data-fact=phase] dd') || {}).textContent || '',
  passCount: !!document.querySelector('[data-fact=pass_count]'),
  figures: [...document.querySelectorAll('#seats .figure')]
    .map((f) => (f.querySelector('button.term') || f).textContent.trim()),
  you: (document.querySelector('#seats .seat.you .name') || {}).textContent || '',
  river: (document.querySelector('#river .label') || {}).textContent || null,
  nextRiver: (document.querySelector('#future-river .label') || {}).textContent || null,
})"""


def assert_labels_are_words(table: TablePage) -> None:
    """No raw phase id, a pass count only while passing, "1 point" and never "1 points", the
    seat's own name on its seat, and Saint Poker's next-round river labelled as such."""
    shown = table.page.evaluate(LABELS_JS)
    assert "_" not in shown["title"] + shown["phase"], shown
    passing = any(word in shown["phase"] for word in ("pass", "passe", "choix du nombre"))
    assert not shown["passCount"] or passing, shown
    assert not [f for f in shown["figures"] if f.startswith("1 ") and f.split()[1].endswith("s")]
    assert shown["you"] == "Ada", shown  # the name given in the lobby, not "You"
    if shown["river"] is not None:
        assert shown["nextRiver"], shown
