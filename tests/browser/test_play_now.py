"""Play now in the lobby: the matchmaking queue from the player's box. Asking for bots after a
second seats the player at a table with bots (the worker's matcher) and the page opens it at
the seat the match names; Cancel leaves the queue (the server then says the player waits for
nothing), from the keyboard alone and in French; a join while the player already waits is
worded by its problem code and shows where the player stands.

Each test queues for a pool (game type, rated or casual) no other test of the suite uses, and
leaves the queue at its end whatever happened, so no two tests' players are ever matched
together."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from testing.browser.pages import Browsing
from testing.browser.table_page import TablePage
from tests.browser.test_players import make_player
from tests.browser.test_rules_and_terms import tab_until

pytestmark = pytest.mark.browser
MATCH_TIMEOUT_MS = 20_000  # a matcher pass each second, bots after one


def queue_of(base_url: str, key: str) -> requests.Response:
    return requests.get(
        f"{base_url}/me/queue", headers={"Authorization": f"Bearer {key}"}, timeout=10
    )


@pytest.fixture()
def leave_queues(live_server) -> Iterator[list[str]]:
    """Keys whose queue is left at the end of the test, whatever happened in it."""
    keys: list[str] = []
    yield keys
    for key in keys:
        requests.delete(
            f"{live_server.url}/me/queue", headers={"Authorization": f"Bearer {key}"}, timeout=10
        )


def ask(page, game_type: str, sizes: list[int], rated: bool, bots_after: int | None) -> None:
    """Fills the Play now form: the game, the table sizes accepted, rated, bots after N s."""
    page.select_option("#queue-type", game_type)
    for box in page.locator("#queue-sizes input[data-size]").all():
        box.set_checked(int(box.get_attribute("data-size") or 0) in sizes)
    page.locator("#queue-rated").set_checked(rated)
    page.locator("#queue-bots").set_checked(bots_after is not None)
    if bots_after is not None:
        page.fill("#queue-bots-after", str(bots_after))


def test_play_now_with_bots_after_a_second_seats_the_player_with_bots_and_opens_the_table(
    open_page, live_server, leave_queues
):
    # Given a first visit to the lobby, Ada typing her name
    browsing = open_page("desktop")
    browsing.goto("")
    page = browsing.page
    page.wait_for_selector("#queue-form #queue-type")
    page.fill("#welcome #name", "Ada")
    # When she asks for a casual Trick & Snipers table of three, bots after a second
    ask(page, "trick_and_snipers", [3], rated=False, bots_after=1)
    page.click("#queue-join")
    ada = _player_made(browsing)
    leave_queues.append(ada["key"])
    assert ada["name"] == "Ada"  # Play now made her player, with the name she typed
    # Then the page says it is searching, with a Cancel (bots come after a second at least)
    page.wait_for_selector("#queue-waiting:not([hidden]) #queue-cancel")
    assert "Trick & Snipers table (3 players, casual, bots after 1 second)" in (
        page.text_content("#queue-searching") or ""
    )
    # And, the matcher having seated her, the table opens by itself at her seat
    page.wait_for_function(
        "() => /^#\\/games\\/[0-9a-f-]{36}$/.test(location.hash)", timeout=MATCH_TIMEOUT_MS
    )
    game_id = page.url.rsplit("/", 1)[1]
    standing = queue_of(live_server.url, ada["key"]).json()
    assert standing["status"] == "matched" and standing["match"]["game_id"] == game_id
    seat = standing["match"]["seat"]
    TablePage(browsing).wait_for_table(game_id, seat=seat)
    page.wait_for_selector("#hand button.card")
    entry = browsing.seat_entry(game_id)
    assert entry is not None and entry["seat"] == seat and entry["player"] == ada["id"]
    assert "token" not in entry  # her key acts there
    # And the other two seats are bots, at a casual table
    game = requests.get(f"{live_server.url}/games/{game_id}", timeout=10).json()
    kinds = {s["seat"]: s["kind"] for s in game["seats"]}
    assert kinds == {s: ("human" if s == seat else "bot") for s in range(3)}, game["seats"]
    assert game["seats"][seat]["player_id"] == ada["id"] and not game.get("rated")


def test_cancel_leaves_the_queue_from_the_keyboard_in_french(open_page, live_server, leave_queues):
    # Given Bea's player on a French lobby
    browsing = open_page("phone", "fr-FR")
    bea = make_player(browsing, "Bea")
    leave_queues.append(bea["key"])
    page = browsing.page
    page.wait_for_selector("#queue-form #queue-type")
    ask(page, "st_patrick", [3, 4], rated=True, bots_after=None)
    # When she joins the queue with the keyboard alone
    page.focus("#queue-type")
    tab_until(page, "() => document.activeElement.id === 'queue-join'")
    page.keyboard.press("Enter")
    # Then the page says, in French, what it looks for and how long she has waited
    page.wait_for_selector("#queue-waiting:not([hidden])")
    assert page.text_content("#queue-searching") == (
        "Recherche d'une table (Saint Patrick, 3 ou 4 joueurs, classée)…"
    )
    page.wait_for_function(  # counting: 1 seconde, then 2 secondes...
        "() => /^Attente : [1-9]\\d* secondes?\\.$/"
        ".test(document.querySelector('#queue-waited').textContent)"
    )
    assert queue_of(live_server.url, bea["key"]).json()["status"] == "waiting"
    assert page.evaluate("() => document.activeElement.id") == "queue-cancel"
    # When she presses Annuler
    assert page.text_content("#queue-cancel") == "Annuler"
    page.keyboard.press("Enter")
    # Then the form is back, the focus on its button, and the server says she waits for nothing
    page.wait_for_selector("#queue-form:not([hidden])")
    page.wait_for_function("() => document.activeElement.id === 'queue-join'")
    assert queue_of(live_server.url, bea["key"]).status_code == 404
    assert page.text_content("#queue-said") == "Vous avez quitté la file d'attente."
    assert not page.locator("#queue-problem:not([hidden])").count()


def test_a_join_while_already_waiting_is_worded_and_shows_where_the_player_stands(
    open_page, live_server, leave_queues
):
    # Given Cy's lobby, open before Cy joined the queue for Saint Poker from another device
    browsing = open_page("desktop")
    cy = make_player(browsing, "Cy")
    leave_queues.append(cy["key"])
    page = browsing.page
    page.wait_for_selector("#queue-form:not([hidden]) #queue-type")
    _wait_for_own_queue_read(browsing)  # else its answer may come after the join below
    joined = requests.post(
        f"{live_server.url}/me/queue",
        json={"type": "saint_poker", "players": [5], "rated": True},
        headers={"Authorization": f"Bearer {cy['key']}"},
        timeout=10,
    )
    assert joined.status_code == 201, joined.text
    # When this page, not knowing it, asks for something else
    ask(page, "trick_and_snipers", [4], rated=False, bots_after=None)
    page.click("#queue-join")
    # Then the server refuses (already-queued), the page says so in words, and shows the wait
    problem = page.wait_for_selector("#queue-problem:not([hidden])")
    assert (problem.text_content() or "").startswith("You are already waiting for a table")
    page.wait_for_selector("#queue-waiting:not([hidden])")
    assert page.text_content("#queue-searching") == (
        "Looking for a Saint Poker table (5 players, rated)…"
    )
    refused = [r for r in browsing.record.responses
               if r.url.endswith("/me/queue") and r.method == "POST"]  # fmt: skip
    assert [r.status for r in refused] == [409] and refused[0].body["code"] == "already-queued"
    assert queue_of(live_server.url, cy["key"]).json()["type"] == "saint_poker"  # unchanged


def _wait_for_own_queue_read(browsing: Browsing) -> None:
    """Until the page has read its player's queue and has no read in flight."""
    for _ in range(150):
        if browsing.record.answered("GET", "/me/queue"):
            return
        browsing.page.wait_for_timeout(100)
    raise AssertionError(f"the page never read its queue: {browsing.record.summary()}")


def _player_made(browsing: Browsing) -> dict:
    for _ in range(100):
        player = browsing.player()
        if player is not None:
            return player
        browsing.page.wait_for_timeout(100)
    raise AssertionError("Play now made no player")
