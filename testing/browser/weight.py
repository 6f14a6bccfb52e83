"""Page weight: the bytes of every response body a fresh browser gets while loading a page and
everything it loads (event streams, which never end, are not counted). The pages: the lobby, a
table as its seat, a guide, the glossary, the replay viewer of a finished game (its events, audit
and key included), a finished game's result screen, the player's pages (my tables, and the
player with its key) and a leaderboard."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from testing.browser.finished import finished_bot_game
from testing.browser.pages import Browsing
from testing.browser.table_page import TablePage, create_table

SETTLE_MS = 1_000  # after the page shows, for late requests (icons, follow-up reads)


@dataclass(frozen=True)
class PageWeight:
    page: str
    bytes: int
    responses: int
    largest: list[tuple[int, str]]

    def line(self) -> str:
        return f"{self.page} {self.bytes / 1024:.1f} KB in {self.responses} responses"


@dataclass(frozen=True)
class Weight:
    pages: list[PageWeight]

    def of(self, page: str) -> PageWeight:
        return next(p for p in self.pages if p.page == page)

    @property
    def heaviest(self) -> PageWeight:
        return max(self.pages, key=lambda p: p.bytes)

    # The figures bench/play_page.py has always reported.
    @property
    def lobby_bytes(self) -> int:
        return self.of("lobby").bytes

    @property
    def table_bytes(self) -> int:
        return self.of("table").bytes

    @property
    def total(self) -> int:
        return self.lobby_bytes + self.table_bytes

    def line(self) -> str:
        return "page weight: " + ", ".join(p.line() for p in self.pages)


def _weigh(name: str, browsing: Browsing, start: int = 0) -> PageWeight:
    browsing.page.wait_for_load_state("load")
    browsing.page.wait_for_timeout(SETTLE_MS)
    responses = browsing.record.responses[start:]
    largest = sorted(((r.size or 0, r.url) for r in responses), reverse=True)[:5]
    return PageWeight(name, browsing.record.bytes_since(start), len(responses), largest)


def measure_page_weight(open_page: Callable[[str], Browsing], base_url: str) -> Weight:
    """Each page in a fresh browser context (nothing cached). The table is a Trick & Snipers
    table created in the lobby with two basic bots; the replay and the result are of a St
    Patrick game of three basic bots (the longest logs of the four games: several hundred
    events, all in the replay's list of steps)."""
    pages = []
    lobby = open_page("desktop")
    lobby.goto("")
    lobby.page.wait_for_selector("#game-types li[data-type]", state="attached")
    pages.append(_weigh("lobby", lobby))
    lobby_responses = len(lobby.record.responses)

    game_id = create_table(lobby, "trick_and_snipers", 3, ["bot:basic", "bot:basic"])
    entry = lobby.seat_entry(game_id)
    assert entry is not None and len(lobby.record.responses) >= lobby_responses
    table = open_page("phone")  # the same player, on another device
    player = lobby.player()
    assert player is not None and entry.get("player") == player["id"], entry
    table.hold_player(player)
    table.goto(f"#/games/{game_id}")
    TablePage(table).wait_for_table(game_id, seat=entry["seat"])
    table.page.wait_for_selector("#hand button.card")
    pages.append(_weigh("table", table))

    tables = open_page("desktop")
    tables.hold_player(player)
    tables.goto("#/tables")
    tables.page.wait_for_selector(f'#mine li[data-game="{game_id}"]', state="attached")
    pages.append(_weigh("tables", tables))

    me = open_page("phone")
    me.hold_player(player)
    me.goto("#/me")
    me.page.wait_for_selector("#me-name")
    pages.append(_weigh("me", me))

    board = open_page("phone")
    board.hold_player(player)
    board.goto("#/leaderboard/trick_and_snipers")
    board.page.wait_for_selector("#board[aria-busy=false]", state="attached")
    pages.append(_weigh("leaderboard", board))

    guide = open_page("phone")
    guide.goto("#/rules/saint_poker")
    guide.page.wait_for_selector("#guide .guide-body h2")
    pages.append(_weigh("guide", guide))

    glossary = open_page("phone")
    glossary.goto("#/glossary")
    glossary.page.wait_for_selector("#glossary .entry")
    pages.append(_weigh("glossary", glossary))

    finished = finished_bot_game(base_url, "st_patrick")
    replay = open_page("desktop")
    replay.goto(f"#/replay/{finished['id']}")
    replay.page.wait_for_selector("#verified[data-verified]", timeout=20_000)
    pages.append(_weigh("replay", replay))

    result = open_page("phone")
    result.goto(f"#/games/{finished['id']}")
    result.page.wait_for_selector("#result svg#chart")
    pages.append(_weigh("result", result))
    return Weight(pages)
