"""The visitor's player in the web client: made on the first visit (with the name chosen there),
its key exported and imported on another browser (a wrong key is refused with a message and
changes nothing), replaced, and its tables listed in "My tables" with a "your turn" badge that
the player's notices bring live."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from testing.browser.pages import Browsing
from testing.browser.table_page import TablePage, create_table
from tests.browser.test_live_updates import streams_lasting

pytestmark = pytest.mark.browser
WAIT_MS = 15_000
WRONG_KEY = "pk_" + "Z" * 43  # shaped like a key, and nobody's


def server_says_whose(base_url: str, key: str) -> requests.Response:
    return requests.get(
        f"{base_url}/players/me", headers={"Authorization": f"Bearer {key}"}, timeout=10
    )


def make_player(browsing: Browsing, name: str) -> dict:
    """A first visit: the lobby's welcome form, named."""
    browsing.goto("")
    browsing.page.wait_for_selector("form#welcome #name")
    browsing.page.fill("#welcome #name", name)
    browsing.page.click("#make-player")
    browsing.page.wait_for_selector("#me-name")
    player = browsing.player()
    assert player is not None
    return player


def exported_key(browsing: Browsing) -> str:
    """The key as the player's page shows it once asked: the shown text and the downloaded file
    must hold the same key, with the warning that it is a secret beside it."""
    page = browsing.page
    browsing.goto("#/me")
    page.wait_for_selector("#key-warning")
    assert not page.locator("#key-out").is_visible()  # shown only when asked
    page.click("#show-key")
    shown = page.input_value("#key-out")
    with page.expect_download() as download:
        page.click("#download-key")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert shown in text.splitlines() and "secret" in text, text
    return shown


def test_a_first_visit_makes_a_player_with_the_name_chosen_and_shows_who_you_are(
    open_page, live_server
):
    # Given a browser that never came here
    browsing = open_page("phone")
    browsing.goto("")
    page = browsing.page
    page.wait_for_selector("form#welcome #name")
    assert browsing.player() is None
    assert page.input_value("#welcome #name")  # a name is suggested
    # When the visitor names its player
    player = make_player(browsing, "Ada Lovelace")
    # Then the page says who it plays as, the header too, and the server knows the key
    assert page.text_content("#me-name") == "Ada Lovelace"
    assert "Ada Lovelace" in (page.text_content("#who") or "")
    known = server_says_whose(live_server.url, player["key"])
    assert known.status_code == 200
    assert known.json()["id"] == player["id"] and known.json()["name"] == "Ada Lovelace"
    # And the key is nowhere in a URL the page asked for
    assert not [r for r in browsing.record.responses if player["key"] in r.url]


def test_a_first_visit_that_creates_a_table_plays_it_as_its_new_player(open_page, live_server):
    browsing = open_page("desktop")
    game_id = create_table(browsing, "trick_and_snipers", 3, ["bot:basic", "bot:basic"], "Bea")
    player = browsing.player()
    assert player is not None and player["name"] == "Bea"
    seats = requests.get(f"{live_server.url}/games/{game_id}", timeout=10).json()["seats"]
    assert seats[0]["player_id"] == player["id"] and seats[0]["name"] == "Bea"
    assert browsing.seat_entry(game_id) == {  # the key acts here: no seat token is kept
        "seat": 0, "player": player["id"], "name": "Bea", "invites": [],
        "saved_at": browsing.seat_entry(game_id)["saved_at"],
    }  # fmt: skip
    TablePage(browsing).wait_for_table(game_id, seat=0)


def test_an_exported_key_imported_in_a_fresh_browser_brings_the_player_and_its_tables(
    open_page, live_server
):
    # Given Ada's player at a table, on a first device
    first = open_page("desktop")
    game_id = create_table(first, "trick_and_snipers", 3, ["bot:basic", "bot:basic"], "Ada")
    ada = first.player()
    TablePage(first).wait_for_table(game_id, seat=0)
    # When her key is exported there and imported on a browser that never saw her
    key = exported_key(first)
    assert key == ada["key"]
    second = open_page("phone")
    second.goto("#/me")
    second.page.wait_for_selector("form#import")
    second.page.fill("#key-in", key)
    second.page.click("#import-key")
    second.page.wait_for_selector("#imported")
    # Then the second browser is Ada, lists her table, and sits at her seat there
    assert second.page.text_content("#me-name") == "Ada"
    assert second.player() == ada
    second.goto("#/tables")
    second.page.wait_for_selector(f'#mine li[data-game="{game_id}"] a')
    second.page.click(f'#mine li[data-game="{game_id}"] a')
    TablePage(second).wait_for_table(game_id, seat=0)
    second.page.wait_for_selector("#hand button.card")


def test_a_key_file_imports_as_well(open_page, tmp_path):
    first = open_page("desktop")
    ada = make_player(first, "Ada")
    file = tmp_path / "cardroom-player-key.txt"
    file.write_text(f"Cardroom player key of Ada. Keep it secret.\n{ada['key']}\n")
    second = open_page("desktop")
    second.goto("#/me")
    second.page.set_input_files("#key-file", str(file))
    second.page.wait_for_function("() => document.querySelector('#key-in').value.startsWith('pk_')")
    second.page.click("#import-key")
    second.page.wait_for_selector("#imported")
    assert second.player() == ada


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_wrong_key_is_refused_with_a_clear_message_and_changes_nothing(
    open_page, live_server, locale
):
    # Given a browser with its own player, and a fresh one
    kept = open_page("desktop", locale)
    ada = make_player(kept, "Ada")
    fresh = open_page("phone", locale)
    expected = {
        "en-GB": "That key is not a player's key",
        "fr-FR": "Cette clé n'est pas une clé de joueur",
    }[locale]
    kept.page.on("dialog", lambda dialog: pytest.fail(f"asked {dialog.message!r}"))
    for browsing in (kept, fresh):
        # When a key that is nobody's is imported
        browsing.goto("#/me")
        browsing.page.wait_for_selector("form#import")
        browsing.page.fill("#key-in", WRONG_KEY)
        browsing.page.click("#import-key")
        # Then the page says so in its language, and the browser's player is as it was
        problem = browsing.page.wait_for_selector("#import-problem:not([hidden])")
        assert (problem.text_content() or "").startswith(expected)
    assert kept.player() == ada and kept.page.text_content("#me-name") == "Ada"
    assert fresh.player() is None
    assert server_says_whose(live_server.url, WRONG_KEY).status_code == 401


def test_importing_another_players_key_asks_before_forgetting_this_browsers(open_page):
    bob = make_player(open_page("desktop"), "Bob")
    browsing = open_page("desktop")
    ada = make_player(browsing, "Ada")
    answers, asked = [False, True], []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if answers.pop(0) else dialog.dismiss()

    browsing.page.on("dialog", answer)
    browsing.goto("#/me")
    for _ in range(2):  # declined, then accepted
        browsing.page.fill("#key-in", bob["key"])
        browsing.page.click("#import-key")
        browsing.page.wait_for_timeout(500)
        if browsing.player() == ada:
            assert not browsing.page.locator("#imported").count()
    browsing.page.wait_for_selector("#imported")
    assert browsing.player() == bob and browsing.page.text_content("#me-name") == "Bob"
    assert len(asked) == 2 and "Ada" in asked[0] and "Bob" in asked[0]


def test_replacing_the_key_keeps_the_player_and_the_old_key_stops_working(open_page, live_server):
    browsing = open_page("desktop")
    ada = make_player(browsing, "Ada")
    browsing.goto("#/me")
    browsing.page.on("dialog", lambda dialog: dialog.accept())
    browsing.page.click("#replace-key")
    browsing.page.wait_for_selector("#replaced")
    renewed = browsing.player()
    assert renewed["id"] == ada["id"] and renewed["key"] != ada["key"]
    assert server_says_whose(live_server.url, ada["key"]).status_code == 401
    assert server_says_whose(live_server.url, renewed["key"]).json()["id"] == ada["id"]


def test_my_tables_shows_a_new_table_and_a_your_turn_badge_when_the_notice_arrives(
    open_page, live_server
):
    # Given Ada's table waiting for a second player, and her tables page open
    browsing = open_page("desktop")
    game_id = create_table(browsing, "trick_and_snipers", 3, ["open", "bot:basic"], "Ada")
    invite = browsing.seat_entry(game_id)["invites"][0]
    browsing.goto("#/tables")
    page = browsing.page
    item = f'#mine li[data-game="{game_id}"]'
    _wait_for_listed_item(browsing, f'{item}[data-my-turn="false"]')
    assert not page.locator(f"{item} .turn-badge").count()
    _wait_for_notice_streams(browsing, 1)
    reads = _inbox_reads(browsing)
    # When someone takes the open seat through the API: the deal asks everyone to pass at once
    joined = requests.post(
        f"{live_server.url}/games/{game_id}/seats/{invite['seat']}/join",
        json={"name": "Bob", "invite": invite["invite"]},
        timeout=10,
    )
    assert joined.status_code == 201
    # Then, without a reload, her tables page shows the badge, brought by the notice
    badge = page.wait_for_selector(f'{item}[data-my-turn="true"] .turn-badge', timeout=WAIT_MS)
    assert badge.text_content() == "Your turn"
    assert "Trick & Snipers" in (page.text_content("#mine-said") or "")
    page.wait_for_timeout(1_000)
    assert _inbox_reads(browsing) > reads  # and the list was read again after it
    assert page.url.endswith("#/tables")


def test_my_tables_pages_and_filters(open_page, live_server):
    # Given Ada with three tables: two waiting for a friend, one with bots
    browsing = open_page("desktop")
    waiting = [create_table(browsing, "trick_and_snipers", 3, ["open", "bot:basic"], "Ada")
               for _ in range(2)]  # fmt: skip
    playing = create_table(browsing, "trick_and_snipers", 3, ["bot:basic", "bot:basic"])
    TablePage(browsing).wait_for_table(playing, seat=0)
    browsing.goto("#/tables")
    page = browsing.page
    _wait_until_listed(browsing, {playing, *waiting})
    # When only the waiting ones are asked for, then only the tables where it is her turn
    page.select_option("#mine-status", "waiting")
    _wait_until_listed(browsing, set(waiting))
    page.select_option("#mine-status", "")
    page.check("#mine-turn")
    _wait_until_listed(browsing, {playing})
    assert page.locator(f'#mine li[data-game="{playing}"][data-my-turn="true"]').count()


def test_my_tables_loads_more_a_page_at_a_time(open_page, live_server):
    browsing = open_page("desktop")
    ada = make_player(browsing, "Ada")
    made = [_table_of(live_server.url, ada["key"]) for _ in range(22)]  # a page is 20
    browsing.goto("#/tables")
    page = browsing.page
    page.wait_for_selector("#mine-more:not([hidden])")
    assert len(_listed(browsing)) == 20
    page.click("#mine-more")
    page.wait_for_selector("#mine-more[hidden]", state="attached")
    assert _listed(browsing) == set(made)


def _table_of(base_url: str, key: str) -> str:
    """A table of the player's, made through the API, waiting for a friend (nothing moves)."""
    seats = [{"kind": "human", "player": "me"}, {"kind": "open"}, {"kind": "bot", "level": "basic"}]
    made = requests.post(
        f"{base_url}/games",
        json={"type": "trick_and_snipers", "seats": seats},
        headers={"Authorization": f"Bearer {key}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    return made.json()["id"]


LISTED_JS = "() => [...document.querySelectorAll('#mine li[data-game]')].map((l) => l.dataset.game)"


def _listed(browsing: Browsing) -> set[str]:
    return set(browsing.page.evaluate(LISTED_JS))


def _wait_until_listed(browsing: Browsing, expected: set[str]) -> None:
    for _ in range(WAIT_MS // 100):
        if _listed(browsing) == expected:
            return
        browsing.page.wait_for_timeout(100)
    assert _listed(browsing) == expected, _what_the_list_read(browsing)


def _wait_for_listed_item(browsing: Browsing, selector: str) -> None:
    """Waits for `selector` in the tables list; on a timeout says what the page read and shows."""
    for _ in range(WAIT_MS // 100):
        if browsing.page.locator(selector).count():
            return
        browsing.page.wait_for_timeout(100)
    raise AssertionError(f"{selector} never showed\n{_what_the_list_read(browsing)}")


def _what_the_list_read(browsing: Browsing) -> str:
    reads = [(r.url, r.status, r.body) for r in browsing.record.responses if "/me/" in r.url]
    return f"{browsing.page.url}\n{browsing.page.inner_html('main')}\n{reads[-6:]}"


def _inbox_reads(browsing: Browsing) -> int:
    return sum("/me/games?" in r.url for r in browsing.record.responses)


def test_a_dropped_notice_stream_reopens_with_a_new_ticket_after_the_last_notice(
    open_page, live_server
):
    # Given Ada's tables page while every stream the server opens ends after a second
    browsing = open_page("desktop")
    game_id = create_table(browsing, "trick_and_snipers", 3, ["open", "bot:basic"], "Ada")
    invite = browsing.seat_entry(game_id)["invites"][0]
    with streams_lasting(live_server, 1.0):
        browsing.goto("#/tables")
        item = f'#mine li[data-game="{game_id}"]'
        _wait_for_listed_item(browsing, f'{item}[data-my-turn="false"]')
        _wait_for_notice_streams(browsing, 2)  # it dropped, and came back
        # When the table is dealt between two drops
        joined = requests.post(
            f"{live_server.url}/games/{game_id}/seats/{invite['seat']}/join",
            json={"name": "Bob", "invite": invite["invite"]},
            timeout=10,
        )
        assert joined.status_code == 201
        browsing.page.wait_for_selector(f'{item}[data-my-turn="true"]', timeout=WAIT_MS)
        opened = len(_notice_streams(browsing))
        _wait_for_notice_streams(browsing, opened + 1)
    # Then each connection had a ticket of its own, and the ones after the notices resumed
    # after the last of them (game started, your turn: numbers 1 and 2)
    urls = _notice_streams(browsing)
    tickets = [parse_qs(urlsplit(url).query)["ticket"][0] for url in urls]
    assert len(set(tickets)) == len(tickets)
    assert parse_qs(urlsplit(urls[-1]).query)["after"] == ["2"]
    assert browsing.player()["key"] not in " ".join(urls)


def _notice_streams(browsing: Browsing) -> list[str]:
    return [r.url for r in browsing.record.responses if "/me/stream?" in r.url and r.status == 200]


def _wait_for_notice_streams(browsing: Browsing, count: int) -> None:
    for _ in range(WAIT_MS // 100):
        if len(_notice_streams(browsing)) >= count:
            return
        browsing.page.wait_for_timeout(100)
    raise AssertionError(f"fewer than {count} notice streams opened")


def test_when_no_player_can_be_made_just_now_the_table_is_still_created_for_this_browser(
    open_page, live_server
):
    # Given a network that made too many players this hour
    browsing = open_page("desktop")
    refused = f"{live_server.url}/players"
    browsing.serve_refusals_at(refused)
    problem = {"title": "Too Many Requests", "status": 429, "code": "rate-limited"}
    headers = {"Retry-After": "600", "Content-Type": "application/problem+json"}
    browsing.page.route(
        refused, lambda route: route.fulfill(status=429, json=problem, headers=headers)
    )
    # When the visitor creates a table
    game_id = create_table(browsing, "trick_and_snipers", 3, ["bot:basic", "bot:basic"], "Cy")
    # Then it plays there with a seat token of its own, as before players
    assert browsing.player() is None
    entry = browsing.seat_entry(game_id)
    assert entry["token"] and entry["name"] == "Cy"
    TablePage(browsing).wait_for_table(game_id, seat=0)
