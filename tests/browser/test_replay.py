"""The replay viewer of a finished game: it steps forwards and backwards and jumps to a version,
each step drawn from `GET /games/{id}/replay?version=N`, its move list links every step, its
address is a share link that opens the same step, and its badge is green only when the browser
itself has checked the head's Ed25519 signature against `/audit-key` and the server's audit
holds; on request it also recomputes every event's hash and every deal from the export. A game
whose stored events were changed behind the server's back, a key that is not the server's, or
an export changed on its way to the page turns it red."""

from __future__ import annotations

import base64
import json

import pytest
import requests

from testing.browser.finished import finished_bot_game, tamper_with_an_event

pytestmark = pytest.mark.browser

BADGE_TIMEOUT_MS = 20_000


def open_replay(open_page, game_id: str, version: int | None = None, viewport: str = "desktop"):
    browsing = open_page(viewport)
    browsing.goto(f"#/replay/{game_id}" + (f"/{version}" if version else ""))
    browsing.page.wait_for_selector("#replay[data-version]")
    return browsing


def shown_version(page) -> int:
    return int(page.get_attribute("#replay", "data-version"))


def step_to(page, button: str, expected: int) -> None:
    page.click(button)
    page.wait_for_function(
        "(v) => Number(document.querySelector('#replay').dataset.version) === v", arg=expected
    )


def badge(page, every_event: bool = False) -> dict:
    """The badge's verdict; `every_event`: after asking for the export's check too."""
    page.wait_for_selector("#verified[data-verified]", timeout=BADGE_TIMEOUT_MS)
    if every_event:
        page.click("#verified summary")
        page.click("#check-events")
        page.wait_for_selector(
            "#verified details[open] li[data-check=chain]", timeout=BADGE_TIMEOUT_MS
        )
    return page.evaluate(
        """() => { const b = document.querySelector('#verified');
          return {verified: b.dataset.verified, cls: b.className, text: b.textContent,
                  failed: [...b.querySelectorAll('li.bad')].map((li) => li.dataset.check),
                  passed: [...b.querySelectorAll('li.ok')].map((li) => li.dataset.check)}; }"""
    )


def replays_asked(browsing) -> list[int]:
    return [
        int(url.split("version=")[1].split("&")[0])
        for _, url in browsing.record.requests
        if "/replay?version=" in url
    ]


def test_the_replay_steps_through_a_finished_game_and_shows_it_verified(open_page, live_server):
    game = finished_bot_game(live_server.url)
    total = game["version"]
    browsing = open_replay(open_page, game["id"])
    page = browsing.page
    assert shown_version(page) == total  # it opens at the end, with the result
    assert page.is_visible("#result") and page.locator("#result .why-end li").count() >= 1

    step_to(page, "#back", total - 1)
    step_to(page, "#back", total - 2)
    step_to(page, "#forward", total - 1)
    page.focus("#forward")
    page.keyboard.press("ArrowLeft")  # the arrow keys step too
    page.wait_for_function(
        "(v) => Number(document.querySelector('#replay').dataset.version) === v", arg=total - 2
    )
    step_to(page, "#first", 1)
    assert page.is_disabled("#back") and page.is_enabled("#forward")
    assert page.is_hidden("#result")  # the result shows only once the game has ended
    page.fill("#jump", "7")
    page.click("#go")
    page.wait_for_function("() => document.querySelector('#replay').dataset.version === '7'")
    assert "7" in (page.text_content("#replay-step") or "")

    # The move list links each step; following one shows that step and marks it current.
    page.click('#moves li[data-version="12"] a')
    page.wait_for_function("() => document.querySelector('#replay').dataset.version === '12'")
    assert page.get_attribute('#moves li[data-version="12"] a', "aria-current") == "step"
    assert page.locator("#moves li").count() == total
    links = page.eval_on_selector_all("#moves a", "(as) => as.map((a) => a.getAttribute('href'))")
    assert links == [f"#/replay/{game['id']}/{v}" for v in range(1, total + 1)]

    # Each step was read from the API's replay at that version.
    asked = replays_asked(browsing)
    assert {total, total - 1, total - 2, 1, 7, 12} <= set(asked), asked

    # The page's address is the step's share link: opened elsewhere, it shows the same step.
    share = page.get_attribute("#share-link", "href")
    assert share.endswith(f"/play#/replay/{game['id']}/12") and page.url == share
    other = open_page("phone")
    other.page.goto(share)
    other.page.wait_for_selector("#replay[data-version='12']")

    verdict = badge(page)
    assert verdict["verified"] == "true" and "ok" in verdict["cls"], verdict
    assert set(verdict["passed"]) == {"key", "signature", "audit"}, verdict
    assert not [u for _, u in browsing.record.requests if u.endswith("/export")]  # not yet
    verdict = badge(page, every_event=True)
    assert verdict["verified"] == "true", verdict
    assert set(verdict["passed"]) == {"key", "signature", "audit", "chain", "head", "deals"}


def test_the_badge_turns_red_for_a_game_whose_stored_events_were_changed(open_page, live_server):
    game = finished_bot_game(live_server.url)
    tamper_with_an_event(live_server.database_url, game["id"])
    browsing = open_replay(open_page, game["id"], 1)
    verdict = badge(browsing.page)
    assert verdict["verified"] == "false" and "bad" in verdict["cls"], verdict
    assert verdict["failed"] == ["audit"], verdict  # the server's audit finds the broken chain
    assert "signature" in verdict["passed"]  # the server's signed head is still its own
    verdict = badge(browsing.page, every_event=True)
    assert "chain" in verdict["failed"], verdict  # and so does the browser, event by event


def test_the_badge_turns_red_for_an_export_changed_on_its_way_to_the_page(open_page, live_server):
    """The export reaches the page with one event's card changed: in the browser, that event no
    longer hashes to the value the next event links to, so the chain check fails."""
    game = finished_bot_game(live_server.url)
    browsing = open_page("desktop")

    def forged(route) -> None:
        lines = route.fetch().text().splitlines()
        played = next(i for i, line in enumerate(lines) if '"type":"CardPlayed"' in line)
        event = json.loads(lines[played])
        event["data"]["card"]["rank"] = event["data"]["card"]["rank"] % 9 + 1
        lines[played] = json.dumps(event, separators=(",", ":"), sort_keys=True)
        route.fulfill(body="\n".join(lines) + "\n", content_type="application/x-ndjson")

    browsing.page.route("**/export", forged)
    browsing.goto(f"#/replay/{game['id']}")
    assert badge(browsing.page)["verified"] == "true"  # the signed head and the audit hold
    verdict = badge(browsing.page, every_event=True)
    assert verdict["verified"] == "false" and "chain" in verdict["failed"], verdict


def test_the_badge_turns_red_when_the_head_is_not_signed_by_the_server_s_key(
    open_page, live_server
):
    """The page is served another key than the one that signed the head (as a man in the middle
    would serve one): the signature check fails in the browser, whatever else holds."""
    game = finished_bot_game(live_server.url)
    browsing = open_page("desktop")

    def another_key(route) -> None:
        key = json.loads(route.fetch().text())
        raw = bytearray(base64.b64decode(key["public_key"]))
        raw[0] ^= 1
        key["public_key"] = base64.b64encode(bytes(raw)).decode()
        route.fulfill(json=key)

    browsing.page.route("**/audit-key", another_key)
    browsing.goto(f"#/replay/{game['id']}")
    verdict = badge(browsing.page)
    assert verdict["verified"] == "false", verdict
    assert {"key", "signature"} & set(verdict["failed"]), verdict


def test_an_unfinished_game_has_no_replay_yet(open_page, live_server):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "open"}, {"kind": "open"}]
    body = {"type": "trick_and_snipers", "seats": seats, "options": {}}
    game_id = requests.post(f"{live_server.url}/games", json=body, timeout=10).json()["id"]
    browsing = open_page("phone")
    browsing.goto(f"#/replay/{game_id}")
    browsing.page.wait_for_selector("#replay #problem")
    assert browsing.page.locator(f'#replay a[href="#/games/{game_id}"]').count() == 1


def hands_drawn(page) -> dict[int, list[tuple[str, int]]]:
    """Each seat's hand as the page draws it by the seat, sorted."""
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('#seats li[data-seat]')].map((li) => [
             Number(li.dataset.seat),
             [...li.querySelectorAll('.open-hand .card')].map((c) => [c.dataset.suit,
               Number(c.dataset.rank)])])"""
    )
    return {seat: sorted((suit, rank) for suit, rank in cards) for seat, cards in drawn}


def hands_from_the_log(events: list[dict], version: int) -> dict[int, list[tuple[str, int]]]:
    """Trick & Snipers hands after event `version`, from the (now public) log alone: dealt,
    passed on, received, played (T1-T3)."""
    hands: dict[int, set] = {}
    for event in events[:version]:
        data, kind = event["data"], event["type"]
        cards = {(c["suit"], c["rank"]) for c in data.get("cards", [])}
        if kind == "HandDealt":
            hands[data["seat"]] = cards
        elif kind == "CardsPassed":
            hands[data["seat"]] -= cards
        elif kind == "CardsReceived":
            hands[data["seat"]] |= cards
        elif kind == "CardPlayed":
            hands[data["seat"]].discard((data["card"]["suit"], data["card"]["rank"]))
    return {seat: sorted(cards) for seat, cards in hands.items()}


def test_stepping_through_a_finished_game_shows_every_seats_hand_as_it_stood(
    open_page, live_server
):
    # Given a finished game, its log public, and the version its last hand was dealt at
    game = finished_bot_game(live_server.url)
    url = f"{live_server.url}/games/{game['id']}/events?limit=1000"
    events = requests.get(url, timeout=10).json()["events"]
    dealt = max(e["version"] for e in events if e["type"] == "HandDealt")
    # When the replay opens there and steps forward through the passes and the first tricks
    browsing = open_replay(open_page, game["id"], dealt)
    page = browsing.page
    seats = range(len(game["seats"]))
    for version in range(dealt, min(dealt + 30, game["version"]) + 1):
        if version > dealt:
            step_to(page, "#forward", version)
        # Then every seat shows its hand as the log says it stood then
        assert hands_drawn(page) == hands_from_the_log(events, version), version
    assert all(hands_drawn(page)[seat] for seat in seats)  # some cards were still in hand
    label = page.get_attribute("#seats li[data-seat='1'] .open-hand", "aria-label")
    assert label == f"{game['seats'][1]['name'] or 'Bot 1'}'s hand"
