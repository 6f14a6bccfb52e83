"""Driving the /play page the way a person would: the lobby's form, the join form, and a table
played by clicks alone, through the DOM contract (ids, classes and data attributes):

- lobby: `#me-box` (on a first visit `form#welcome` with `input#name` and
  `button#make-player`; then `#me-name`), `#game-types li[data-type]`, `form#create`
  (`select#type`, `select#players`, `select.seat-kind[data-seat]`, `input#opt-*`,
  `button#create-table`), `#waiting`/`#mine li[data-game][data-my-turn]` (`.turn-badge`);
  "Play now" in `#me-box`: `form#queue-form` (`select#queue-type`, `#queue-sizes
  input[data-size]`, `input#queue-rated`, `input#queue-bots`, `input#queue-bots-after`,
  `button#queue-join`), while waiting `#queue-waiting` (`#queue-searching`, `#queue-waited`,
  `button#queue-cancel`), `#queue-problem`, `#queue-found`;
- leaderboards (`#/leaderboard/<type>`): `.tabs a[data-type][aria-current]`,
  `table#board[data-type][aria-busy]` with `#board-rows tr[data-player][data-rank]`,
  `button#board-more`, `#board-empty`; the header's `#leaderboard-link`;
- join: `form#join` (`input#join-name` while the browser has no player, `button#join-seat`);
- your player (`#/me`): `#me-name`, `#show-key`, `#key-out`, `#copy-key`, `#download-key`,
  `form#import` (`input#key-in`, `input#key-file`, `button#import-key`, `#import-problem`),
  `button#replace-key`; my tables (`#/tables`): `#mine`, `select#mine-status`,
  `input#mine-turn`, `button#mine-more`; the header's `#who`;
- table: `#table[data-game][data-version][data-status][data-seat]`, `#status-line`, `#seats`,
  `#share a.share-link[data-seat]`, `button.card[data-suit][data-rank]` in `#hand` (and Saint
  Poker's `#river`, and the revealed cards beside it: any `#table button.card` counts), `legal`
  when usable, `disabled` otherwise, `aria-pressed` when picked; `button#send-cards`,
  `input#count` + `button#send-count`, `button[data-action]`, `#problem`, `#log li[data-version]`,
  `#result` + `svg#chart polyline[data-seat]`, `button#leave`;
- everywhere: `#offline` (the connection banner), `#language`, `#glossary-link`;
- the replay (`#/replay/<id>/<version>`): `#replay[data-version][data-total]`, `#first`,
  `#back`, `#forward`, `#last`, `#jump` + `#go`, `#moves li[data-version] a`, `#share-link`,
  `#verified[data-verified]` with `li[data-check]` (`ok` or `bad`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from testing.browser.cards import Card
from testing.browser.pages import Browsing

GAME_TIMEOUT = 180.0  # seconds for a whole game: St Patrick takes about 16 moves, Saint Poker 30
STEP_TIMEOUT_MS = 20_000  # the page answers a move (ours, then the bots') within this

# What the page offers now, in one evaluation (so one consistent moment of the DOM).
SITUATION_JS = """() => {
  const table = document.querySelector('#table');
  if (!table) return null;
  const shown = (el) => !!el && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  const enabled = (el) => !!el && !el.disabled && shown(el);
  const cards = [...document.querySelectorAll('#table button.card')];
  const count = document.querySelector('#count');
  const send = document.querySelector('#send-cards');
  const actions = [...document.querySelectorAll('button[data-action]')]
    .filter((b) => enabled(b) && !b.classList.contains('card')
      && !['send-cards', 'send-count', 'leave'].includes(b.id))
    .map((b) => b.dataset.action);
  return {
    game: table.dataset.game || null,
    version: Number(table.dataset.version),
    status: table.dataset.status || null,
    seat: table.hasAttribute('data-seat') ? Number(table.dataset.seat) : null,
    legal: cards.filter((b) => b.classList.contains('legal') && enabled(b)).length,
    enabledCards: cards.filter((b) => !b.disabled).length,
    pressed: cards.filter((b) => b.getAttribute('aria-pressed') === 'true').length,
    multi: !!send,
    sendEnabled: enabled(send),
    count: enabled(count) ? {min: Number(count.min), max: Number(count.max)} : null,
    actions,
    problem: (document.querySelector('#problem') || {}).textContent || '',
    finished: table.dataset.status === 'finished' && shown(document.querySelector('#result'))
      && !!document.querySelector('svg#chart'),
  };
}"""

CARDS_JS = """(where) => [...document.querySelectorAll(where)].map((b) => ({
  suit: b.dataset.suit, rank: Number(b.dataset.rank),
  legal: b.classList.contains('legal'), disabled: b.disabled,
  pressed: b.getAttribute('aria-pressed') === 'true',
  name: b.getAttribute('aria-label') || b.getAttribute('title') || b.textContent.trim()}))"""


class PageContractError(AssertionError):
    """The page does not do what the DOM contract says."""


@dataclass
class Move:
    """One move made by clicks: its kind, the page's version before it, and what was clicked."""

    kind: str
    version: int
    detail: Any = None


@dataclass
class TablePage:
    browsing: Browsing
    moves: list[Move] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def page(self):
        return self.browsing.page

    # --- reading -------------------------------------------------------------------------

    def situation(self) -> dict | None:
        return self.page.evaluate(SITUATION_JS)

    def wait_for_table(self, game_id: str | None = None, seat: int | None = None,
                       timeout_ms: int = STEP_TIMEOUT_MS) -> dict:  # fmt: skip
        """Waits for `#table` of that game (as that seat) to have rendered a version."""
        selector = "#table[data-version]"
        if game_id:
            selector += f'[data-game="{game_id}"]'
        if seat is not None:
            selector += f'[data-seat="{seat}"]'
        self.page.wait_for_selector(selector, state="attached", timeout=timeout_ms)
        situation = self.situation()
        assert situation is not None
        return situation

    def version(self) -> int:
        return int(self.page.get_attribute("#table", "data-version"))

    def hand(self) -> list[Card]:
        return [(c["suit"], c["rank"]) for c in self.cards("#hand button.card")]

    def cards(self, where: str = "#hand button.card") -> list[dict]:
        return self.page.evaluate(CARDS_JS, where)

    def log_versions(self) -> set[int]:
        return set(self.page.evaluate(
            "() => [...document.querySelectorAll('#log li[data-version]')]"
            ".map((li) => Number(li.dataset.version))"
        ))  # fmt: skip

    def wait_for_version(self, at_least: int, timeout_ms: int = STEP_TIMEOUT_MS) -> None:
        self.page.wait_for_function(
            "(v) => Number((document.querySelector('#table') || {dataset: {}}).dataset.version)"
            " >= v",
            arg=at_least,
            timeout=timeout_ms,
        )

    def answered_actions(self, count: int, timeout: float = STEP_TIMEOUT_MS / 1000) -> list:
        """The page's recorded answers to POST .../actions, once at least `count` have come (or
        the time is up). The log line a move adds can arrive by the stream before the POST's
        own answer reaches the recording, so a test that has seen the line waits here."""
        deadline = time.monotonic() + timeout
        while True:
            posts = [r for r in self.browsing.record.responses if r.url.endswith("/actions")]
            if len(posts) >= count or time.monotonic() > deadline:
                return posts
            self.page.wait_for_timeout(50)  # lets Playwright deliver the response events

    def wait_for_my_turn_or_the_end(self, timeout: float = STEP_TIMEOUT_MS / 1000) -> dict:
        """Polls until the page offers this seat something to do, or shows the result."""
        deadline = time.monotonic() + timeout
        situation = self.situation()
        while time.monotonic() < deadline:
            situation = self.situation()
            if situation and (situation["finished"] or _can_act(situation)):
                return situation
            self.page.wait_for_timeout(50)
        raise PageContractError(
            f"within {timeout:.0f} s the page offered no move and showed no result: {situation}"
        )

    # --- acting --------------------------------------------------------------------------

    def make_one_move(self, situation: dict) -> Move:
        """Makes the move the page offers, by clicks: a number choice at its maximum (St
        Patrick's relics: the shortest game), the first `count` legal cards of a multi-card
        choice, the first legal card of a single-card choice, else the first action button.
        Then waits for the page to show a later version (or a problem)."""
        version = situation["version"]
        shown = (self.page.text_content("#problem") or "").strip()
        if situation["count"]:
            bounds = situation["count"]
            self.page.fill("#count", str(bounds["max"]))
            self.page.click("#send-count")
            move = Move("count", version, bounds["max"])
        elif situation["legal"] and situation["multi"]:
            move = Move("cards", version, self._pick_until_sendable())
            self.page.click("#send-cards")
        elif situation["legal"]:
            card = self.page.locator("#table button.card.legal:not([disabled])").first
            detail = (card.get_attribute("data-suit"), int(card.get_attribute("data-rank")))
            card.click()
            move = Move("card", version, detail)
        elif situation["actions"]:
            action = situation["actions"][0]
            self.page.click(f'button[data-action="{action}"]:not([disabled])')
            move = Move(action, version)
        else:
            raise PageContractError(f"nothing to click: {situation}")
        self.moves.append(move)
        self._wait_after(version, shown)
        return move

    def _pick_until_sendable(self) -> list[Card]:
        """Clicks legal cards one by one until `#send-cards` enables: the template's count."""
        picked: list[Card] = []
        legal = '#hand button.card.legal:not([aria-pressed="true"]):not([disabled])'
        for _ in range(60):
            if self.page.is_enabled("#send-cards"):
                return picked
            card = self.page.locator(legal).first
            if card.count() == 0:
                break
            picked.append((card.get_attribute("data-suit"), int(card.get_attribute("data-rank"))))
            card.click()
            self.page.wait_for_function(
                "(n) => document.querySelectorAll('#hand button.card[aria-pressed=\"true\"]')"
                ".length >= n",
                arg=len(picked),
                timeout=5_000,
            )
        if self.page.is_enabled("#send-cards"):
            return picked
        raise PageContractError(f"#send-cards never enabled after picking {picked}")

    def _wait_after(self, version: int, shown: str) -> None:
        """Until the page shows a version after `version`, or a problem other than `shown`
        (the one it showed before the move)."""
        try:
            self.page.wait_for_function(
                """([v, shown]) => {
                  const t = document.querySelector('#table');
                  const p = ((document.querySelector('#problem') || {}).textContent || '').trim();
                  return (t && Number(t.dataset.version) > v) || (p !== '' && p !== shown);
                }""",
                arg=[version, shown],
                timeout=STEP_TIMEOUT_MS,
            )
        except Exception as error:
            raise PageContractError(
                f"the page still shows version {version} {STEP_TIMEOUT_MS} ms after a move"
            ) from error
        problem = (self.page.text_content("#problem") or "").strip()
        if problem and problem != shown and self.version() == version:
            self.problems.append(problem)

    def play_to_the_end(
        self,
        timeout: float = GAME_TIMEOUT,
        before_move: Callable[[TablePage, dict, int], None] | None = None,
    ) -> dict:
        """Makes every move the page offers until it shows the result. `before_move(table,
        situation, moves so far)` runs each time the page offers a move, before it is made."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = max(1.0, deadline - time.monotonic())
            situation = self.wait_for_my_turn_or_the_end(min(left, STEP_TIMEOUT_MS / 1000))
            if situation["finished"]:
                return situation
            if len(self.problems) > 5:
                raise PageContractError(f"the page keeps showing problems: {self.problems}")
            if before_move:
                before_move(self, situation, len(self.moves))
            self.make_one_move(situation)
        raise PageContractError(
            f"the game did not end within {timeout:.0f} s ({len(self.moves)} moves made)"
        )


def _can_act(situation: dict) -> bool:
    return bool(situation["legal"] or situation["count"] or situation["actions"])


# --- the lobby and the join form --------------------------------------------------------------


def create_table(
    browsing: Browsing,
    game_type: str,
    players: int,
    others: list[str],
    name: str = "Ada",
    turn_seconds: int | None = None,
    checkboxes: dict[str, bool] | None = None,
) -> str:
    """Fills the lobby's form (seat 0 is ours; `others`: `bot:basic`, `bot:random` or `open`
    for seats 1...; `checkboxes`: boolean options such as `first_lead_snake_allowed`) and
    submits it; returns the new game's id once its table shows. A browser with no player yet
    names it `name` (creating the table makes it); one with a player sits as that player."""
    page = browsing.page
    if "#/games/" in page.url or "/play" not in page.url:
        browsing.goto("")
    page.wait_for_selector(f'#game-types li[data-type="{game_type}"]', state="attached")
    page.select_option("#type", game_type)
    page.select_option("#players", str(players))
    if page.locator("#welcome #name").count():
        page.fill("#welcome #name", name)
    for seat, kind in enumerate(others, start=1):
        page.select_option(f'select.seat-kind[data-seat="{seat}"]', kind)
    if turn_seconds is not None:
        page.fill("#opt-turn_seconds", str(turn_seconds))
    for option, checked in (checkboxes or {}).items():
        page.set_checked(f"input#opt-{option}", checked)
    page.click("#create-table")
    page.wait_for_url("**/play#/games/*", timeout=STEP_TIMEOUT_MS)
    game_id = page.url.split("#/games/", 1)[1].split("/")[0].split("?")[0]
    TablePage(browsing).wait_for_table(game_id)
    return game_id


def join_by_link(browsing: Browsing, link: str, name: str) -> str:
    """Opens a share link, fills the join form and sends it (the name only names a browser's
    first player); returns the game id."""
    page = browsing.page
    page.goto(link)
    page.wait_for_selector("form#join", state="visible")
    if page.locator("#join-name").count():
        page.fill("#join-name", name)
    page.click("#join-seat")
    page.wait_for_url("**/play#/games/*", timeout=STEP_TIMEOUT_MS)
    return page.url.split("#/games/", 1)[1].split("/")[0]
