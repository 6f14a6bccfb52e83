"""A browser context with one recording page, at a phone or desktop viewport, and the few
things every test asks of the /play page: go to a route, its memory, its HTML, its tokens."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from testing.browser.recording import PageRecord

VIEWPORTS: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 360, "height": 740},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
TIMEOUT_MS = 15_000
SEAT_KEY = "cardroom.seat.{game}"
PLAYER_KEY = "cardroom.player"


@dataclass
class Browsing:
    context: Any
    page: Any
    record: PageRecord
    base_url: str
    viewport: str
    name: str = field(default="")
    refusals_served: set[str] = field(default_factory=set)  # URLs the test itself answers 5xx

    def serve_refusals_at(self, url: str) -> None:
        """The test answers `url` with 5xx on purpose: those answers are not the server's."""
        self.refusals_served.add(url)

    def url(self, route: str = "") -> str:
        """The /play page at a hash route ("#/games/<id>"; "" for the lobby)."""
        return f"{self.base_url}/play{route}"

    def goto(self, route: str = "") -> None:
        self.page.goto(self.url(route))

    def memory(self) -> Any:
        """Everything the app holds (`window.cardroom.memory()`), as JSON."""
        return self.page.evaluate("() => JSON.parse(JSON.stringify(window.cardroom.memory()))")

    def language(self) -> str:
        """The page's `<html lang>`."""
        return self.page.evaluate("() => document.documentElement.lang")

    def html(self) -> str:
        return self.page.evaluate("() => document.documentElement.outerHTML")

    def seat_entry(self, game_id: str) -> dict | None:
        """What this browser keeps for a game in localStorage (seat, token, name, invites)."""
        raw = self.page.evaluate(
            "(key) => localStorage.getItem(key)", SEAT_KEY.format(game=game_id)
        )
        return None if raw is None else json.loads(raw)

    def player(self) -> dict | None:
        """The player this browser plays as (`{"id", "name", "key"}`), from localStorage."""
        raw = self.page.evaluate("(key) => localStorage.getItem(key)", PLAYER_KEY)
        return None if raw is None else json.loads(raw)

    def credential(self, game_id: str) -> str:
        """What acts for this browser's seat at a game: the seat's own token, or the player's
        key at a seat the player took."""
        entry = self.seat_entry(game_id)
        assert entry is not None, f"{self.name} holds no seat at {game_id}"
        if entry.get("token"):
            return entry["token"]
        player = self.player()
        assert player is not None and entry.get("player") == player["id"], (entry, player)
        return player["key"]

    def hold_player(self, player: dict) -> None:
        """Gives this browser a player (as an import would), before any page loads: the entry
        the app itself would write, unless it has one already."""
        key, entry = json.dumps(PLAYER_KEY), json.dumps(json.dumps(player))
        self.context.add_init_script(
            f"try {{ if (!localStorage.getItem({key})) localStorage.setItem({key}, {entry}); }}"
            " catch (e) {}"
        )

    def hold_seat(self, game_id: str, seat: int, token: str, name: str) -> None:
        """Gives this browser a seat at a game made through the API (e.g. with a fixed deck):
        its localStorage gets the entry the app itself would write, before any page loads."""
        entry = json.dumps({"seat": seat, "token": token, "name": name, "invites": []})
        key = SEAT_KEY.format(game=game_id)
        self.context.add_init_script(
            f"try {{ if (!localStorage.getItem({json.dumps(key)}))"
            f" localStorage.setItem({json.dumps(key)}, {json.dumps(entry)}); }} catch (e) {{}}"
        )

    def close(self) -> None:
        try:
            self.context.close()
        except Exception:  # the browser may already be gone at the end of a session
            pass


_count = 0


def new_browsing(
    browser, base_url: str, viewport: str = "desktop", locale: str | None = None
) -> Browsing:
    """`locale` ("fr-FR", "en-GB"): the browser's language, which the page follows until a
    language is picked in its header (by default Chromium's own, English)."""
    global _count
    _count += 1
    context = browser.new_context(**VIEWPORTS[viewport], **({"locale": locale} if locale else {}))
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    record = PageRecord().attach(page)
    return Browsing(context, page, record, base_url, viewport, f"page {_count} ({viewport})")
