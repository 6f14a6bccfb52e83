"""Connection state: when the server cannot be reached, a clear banner says so and the cards and
buttons are locked; when it answers again, the banner goes away by itself, the stream is live
again and the cards come back (the old page kept a red "Cannot reach the server" while it said
"live")."""

from __future__ import annotations

import pytest

from tests.browser.test_live_updates import pass_for, seat_page, streams_lasting, three_humans

pytestmark = pytest.mark.browser

BANNER = "#offline"
LOCKED = """() => { const cards = [...document.querySelectorAll('#hand button.card')];
  return cards.length > 0 && cards.every((b) => b.disabled); }"""
USABLE = """() => [...document.querySelectorAll('#hand button.card')]
  .some((b) => !b.disabled && b.classList.contains('legal'))"""


def test_the_banner_shows_while_the_server_is_gone_and_clears_when_it_is_back(
    open_page, live_server
):
    game_id, tokens = three_humans(live_server.url)
    with streams_lasting(live_server, 1.0):  # each stream ends soon, as a dying server's would
        table = seat_page(open_page, live_server, game_id, tokens[0])
        check_the_banner(table, live_server.url)


def check_the_banner(table, url: str) -> None:
    page = table.page
    table.wait_for_my_turn_or_the_end()  # four cards to pass: the hand is usable
    page.wait_for_function("() => document.querySelector('#live').dataset.state === 'live'")
    page.wait_for_timeout(1500)  # streams ended and reopened meanwhile: no banner for that
    assert page.is_hidden(BANNER) and page.evaluate(USABLE)

    gone = f"{url}/**"
    page.route(gone, lambda route: route.abort("connectionrefused"))  # the server is gone
    page.wait_for_selector(BANNER, state="visible", timeout=10_000)
    assert (page.text_content(BANNER) or "").strip()
    assert page.evaluate(LOCKED), "the cards stay clickable while the server is unreachable"
    assert page.is_disabled("#send-cards")
    page.wait_for_timeout(2500)  # a probe or two fail meanwhile: still offline
    assert page.is_visible(BANNER)

    page.unroute(gone)  # the server is back
    page.wait_for_selector(BANNER, state="hidden", timeout=15_000)
    page.wait_for_function(
        "() => document.querySelector('#live').dataset.state === 'live'", timeout=15_000
    )
    page.wait_for_function(USABLE)
    assert page.is_hidden("#problem")  # no stale "cannot reach the server" left behind

    table.make_one_move(table.wait_for_my_turn_or_the_end())  # and a move lands again
    assert [r.status for r in table.answered_actions(1)] == [201]


def test_a_busy_server_s_note_goes_once_it_answers_again(open_page, live_server):
    """A 503 while reading the table shows "busy or restarting" (by its code, in words); the
    next answer from the server takes it away, with nothing for the player to do."""
    game_id, tokens = three_humans(live_server.url)
    table = seat_page(open_page, live_server, game_id, tokens[0])
    page = table.page
    table.wait_for_my_turn_or_the_end()
    busy = {"type": "about:blank", "title": "Service Unavailable", "status": 503,
            "detail": "the database cannot be reached", "code": "unavailable"}  # fmt: skip
    view = f"{live_server.url}/games/{game_id}"
    table.browsing.serve_refusals_at(view)
    page.route(view, lambda route: route.fulfill(status=503, json=busy, headers={
        "Content-Type": "application/problem+json", "Retry-After": "1"}))  # fmt: skip
    pass_for(live_server.url, game_id, tokens[1])  # an event: the page reads the view
    page.wait_for_selector("#problem", state="visible")
    assert "busy" in (page.text_content("#problem") or "")
    assert page.is_hidden(BANNER)  # the server answered: it is reachable, only busy
    page.unroute(view)
    pass_for(live_server.url, game_id, tokens[2])  # the next event reads it again: answered
    page.wait_for_selector("#problem", state="hidden")
