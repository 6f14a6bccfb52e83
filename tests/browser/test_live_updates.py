"""The table follows the game live: a stream that drops is resumed after the last event seen,
with nothing missed and nothing twice, and a move made on a table that has meanwhile moved on
is refused and said so in words, never sent against the wrong state."""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager

import pytest
import requests

from testing.browser.secrets import http_reader
from testing.browser.table_page import TablePage

pytestmark = pytest.mark.browser

HUMANS = [{"kind": "human", "name": name} for name in ("Ada", "Bo", "Cy")]


def three_humans(url: str) -> tuple[str, list[str]]:
    body = {"type": "trick_and_snipers", "seats": HUMANS, "options": {"first_leader": 1}}
    created = requests.post(f"{url}/games", json=body, timeout=10).json()
    return created["id"], [t["token"] for t in created["tokens"]]


def pass_for(url: str, game_id: str, token: str) -> int:
    """Seat of `token` passes its first four cards through the API; the new version."""
    auth = {"Authorization": f"Bearer {token}"}
    hand = requests.get(f"{url}/games/{game_id}", headers=auth, timeout=10).json()["you"]["hand"]
    body = {"type": "pass_cards", "cards": hand[:4]}
    response = requests.post(f"{url}/games/{game_id}/actions", json=body, headers=auth, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["version"]


def play_for(url: str, game_id: str, token: str) -> int:
    auth = {"Authorization": f"Bearer {token}"}
    mine = requests.get(f"{url}/games/{game_id}", headers=auth, timeout=10).json()
    card = mine["you"]["legal_actions"][0]["cards"][0]
    body = {"type": "play_card", "card": card}
    response = requests.post(f"{url}/games/{game_id}/actions", json=body, headers=auth, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["version"]


@contextmanager
def streams_lasting(live_server, seconds: float):
    """Every stream the server opens meanwhile ends after `seconds`, as a dropped one would."""
    services = live_server.app.extensions["cardroom"]
    before = services.settings
    services.settings = dataclasses.replace(before, stream_max_seconds=seconds)
    try:
        yield
    finally:
        services.settings = before


def seat_page(open_page, live_server, game_id: str, token: str) -> TablePage:
    browsing = open_page("desktop")
    browsing.hold_seat(game_id, 0, token, "Ada")
    browsing.goto(f"#/games/{game_id}")
    table = TablePage(browsing)
    table.wait_for_table(game_id, seat=0)
    return table


def test_a_dropped_stream_resumes_after_the_last_event_with_none_missed_or_twice(
    open_page, live_server
):
    url = live_server.url
    game_id, tokens = three_humans(url)
    with streams_lasting(live_server, 0.5):
        table = seat_page(open_page, live_server, game_id, tokens[0])
        table.make_one_move(table.wait_for_my_turn_or_the_end())  # our pass, by clicks
        pass_for(url, game_id, tokens[1])
        version = pass_for(url, game_id, tokens[2])
        table.page.wait_for_timeout(1200)  # the page's streams have ended and resumed by now
        version = play_for(url, game_id, tokens[1])  # seat 1 leads
        table.wait_for_version(version)
        table.page.wait_for_function(
            "(v) => document.querySelectorAll('#log li').length >= v", arg=version
        )
    logged = table.page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map((li) => Number(li.dataset.version))"
    )
    assert logged == list(range(1, version + 1))  # every event once, in order
    streams = [u for _, u in table.browsing.record.requests if "/events/stream" in u]
    assert len(streams) >= 3, streams  # it was cut and reopened, more than once
    assert all("ticket=" in u and "access_token" not in u for u in streams)  # never the token
    resumed_from = [int(u.split("after=")[1].split("&")[0]) for u in streams]
    assert resumed_from == sorted(resumed_from) and resumed_from[-1] > resumed_from[0]
    mine = http_reader(url)(f"/games/{game_id}", tokens[0])
    assert sorted(table.hand()) == sorted((c["suit"], c["rank"]) for c in mine["you"]["hand"])


def test_a_move_on_a_table_that_moved_on_is_refused_and_said_in_words(open_page, live_server):
    url = live_server.url
    game_id, tokens = three_humans(url)
    browsing = open_page("phone")
    browsing.page.route("**/events/stream*", lambda route: route.abort())  # no live updates
    browsing.hold_seat(game_id, 0, tokens[0], "Ada")
    browsing.goto(f"#/games/{game_id}")
    table = TablePage(browsing)
    shown = table.wait_for_table(game_id, seat=0)["version"]
    table.page.wait_for_function(  # the page has loaded the log too: it reads nothing more
        "(v) => document.querySelectorAll('#log li').length >= v", arg=shown
    )
    shown = table.version()
    moved_to = pass_for(url, game_id, tokens[1])  # the page does not see this
    assert table.version() == shown < moved_to

    table.make_one_move(table.wait_for_my_turn_or_the_end())  # pick four cards, press Pass
    problem = browsing.page.locator("#problem")
    problem.wait_for(state="visible")
    assert "moved on" in (problem.text_content() or "")
    posts = [r for r in browsing.record.responses if r.url.endswith("/actions")]
    assert [r.status for r in posts] == [409]
    assert posts[0].body["code"] == "version-conflict"
    table.wait_for_version(moved_to)  # the page now shows the table as it is

    table.make_one_move(table.wait_for_my_turn_or_the_end())  # and the same move now lands
    table.page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some((li) => "
        "li.textContent.startsWith('You passed'))"
    )
    assert [r.status for r in table.answered_actions(2)] == [409, 201]
    assert problem.is_hidden()
