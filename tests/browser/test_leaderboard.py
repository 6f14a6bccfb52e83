"""The leaderboards page (`#/leaderboard/<type>`): reached from the header by keyboard, one tab
per game, it lists the rated players of a game best displayed rating first, with their ranks
(ties share one), displayed ratings and games, a page at a time, the reader's own row marked
and a bot level named in the page's language; a game nobody is ranked at yet shows an empty
state, in English and in French.

The rated players are written as the ratings' worker writes them (as tests/api/test_ratings.py
does): ten rated games each would take minutes of bots. Ouroboros Trick's ratings are far above
anything else the suite could rate; no test of the suite plays Saint Poker rated."""

from __future__ import annotations

import pytest
import requests

from domain.tables.rated_tables import BOT_RATERS
from events.postgres import ratings
from events.ratings import PROVISIONAL_GAMES, Rating
from tests.browser.test_rules_and_terms import tab_until

pytestmark = pytest.mark.browser
RANKED = "ouroboros_trick"
NOBODY = "saint_poker"
ROWS_JS = """() => [...document.querySelectorAll('#board-rows tr')].map((tr) => ({
  player: tr.dataset.player, you: tr.classList.contains('you'),
  cells: [...tr.children].map((cell) => cell.textContent)}))"""


def rated_player(live_server, game_type: str, name: str, display: float, games: int) -> dict:
    """A new player whose rating at `game_type` shows `display` after `games` rated games."""
    made = requests.post(f"{live_server.url}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    player = made.json()
    write_rating(live_server, game_type, player["id"], display, games)
    return player


def write_rating(live_server, game_type: str, player_id: str, display: float, games: int) -> None:
    sigma = 2.0
    with live_server.app.extensions["cardroom"].pool.connection() as conn, conn.transaction():
        ratings.lock_ratings(conn, game_type, [player_id])
        ratings.save(conn, game_type, {player_id: Rating(display + 3 * sigma, sigma, games)})


def test_the_leaderboard_lists_rated_players_best_first_a_page_at_a_time(open_page, live_server):
    # Given 22 players far above anyone else at Ouroboros Trick, the second and third tied, the
    # strong bot among them, and a provisional player above them all
    displays = [2000.0, 1990.0, 1990.0] + [1980.0 - 10 * i for i in range(19)]
    names = [f"Top {i:02d}" for i in range(len(displays))]
    players = [rated_player(live_server, RANKED, name, display, PROVISIONAL_GAMES + 3)
               for name, display in zip(names, displays, strict=True)]  # fmt: skip
    write_rating(live_server, RANKED, BOT_RATERS["strong"], 1985.0, PROVISIONAL_GAMES)
    rated_player(live_server, RANKED, "Newcomer", 5000.0, PROVISIONAL_GAMES - 1)
    # When the first of them opens the leaderboards from the header, by keyboard, then the
    # game's tab
    browsing = open_page("desktop")
    browsing.hold_player({key: players[0][key] for key in ("id", "name", "key")})
    browsing.goto("")
    page = browsing.page
    page.wait_for_selector("#game-types li[data-type]")
    tab_until(page, "() => document.activeElement.id === 'leaderboard-link'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#leaderboard .tabs a[aria-current=page]")
    tab_until(page, f"() => document.activeElement.dataset.type === '{RANKED}'")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#board[data-type="{RANKED}"][aria-busy=false]')
    # Then the first page lists them best first, ranked, ties sharing a rank, the bot named
    rows = page.evaluate(ROWS_JS)
    assert len(rows) == 20
    head = [row["cells"] for row in rows[:5]]
    tied = sorted(players[1:3], key=lambda p: p["id"])  # ties: the lower id first, as the API
    assert head == [
        ["1", "Top 00 (you)", "2,000.0", "13"],
        *[["2", p["name"], "1,990.0", "13"] for p in tied],
        ["4", "Strong bot", "1,985.0", "10"],
        ["5", "Top 03", "1,980.0", "13"],
    ], head
    assert [row["you"] for row in rows[:2]] == [True, False]
    assert "Newcomer" not in page.text_content("#board")
    # And "More players" brings the rest, in order, after them
    page.click("#board-more")
    page.wait_for_function("() => document.querySelectorAll('#board-rows tr').length > 20")
    shown = [row["player"] for row in page.evaluate(ROWS_JS)]
    top = [players[0]["id"], *(p["id"] for p in tied), BOT_RATERS["strong"]]
    expected = top + [p["id"] for p in players[3:]]
    assert shown[: len(expected)] == expected
    assert page.text_content("#board-empty") and page.locator("#board-empty").is_hidden()


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-GB", "Nobody is on the Saint Poker leaderboard yet"),
        ("fr-FR", "Personne n'est encore classé à Saint Poker"),
    ],
)
def test_a_game_nobody_is_ranked_at_shows_the_empty_state(open_page, live_server, locale, said):
    # Given a game at which nobody has played enough rated games (the server agrees)
    board = requests.get(f"{live_server.url}/leaderboards/{NOBODY}", timeout=10).json()
    assert board["items"] == []
    # When its leaderboard is opened
    browsing = open_page("phone", locale)
    browsing.goto(f"#/leaderboard/{NOBODY}")
    page = browsing.page
    empty = page.wait_for_selector("#board-empty:not([hidden])")
    # Then the page says so in its language, with the way to a rated game, and no table
    assert (empty.text_content() or "").startswith(said)
    assert empty.query_selector("a[href='#/']")
    assert page.locator("#board").is_hidden() and page.locator("#board-more").is_hidden()
    current = page.locator("#leaderboard .tabs a[aria-current=page]")
    assert current.get_attribute("data-type") == NOBODY
