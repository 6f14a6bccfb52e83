"""Page weight: the bytes of every response body a fresh browser gets while loading the lobby,
and while loading a table page as its seat (event streams, which never end, are not counted)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.browser.pages import Browsing
from tests.browser.table_page import TablePage, create_table

SETTLE_MS = 1_000  # after the page shows, for late requests (icons, follow-up reads)


@dataclass(frozen=True)
class Weight:
    lobby_bytes: int
    lobby_responses: int
    table_bytes: int
    table_responses: int
    largest: list[tuple[int, str]]

    @property
    def total(self) -> int:
        return self.lobby_bytes + self.table_bytes

    def line(self) -> str:
        return (
            f"page weight: lobby {self.lobby_bytes / 1024:.1f} KB in {self.lobby_responses} "
            f"responses, table page {self.table_bytes / 1024:.1f} KB in {self.table_responses} "
            f"responses, total {self.total / 1024:.1f} KB"
        )


def measure_page_weight(open_page: Callable[[str], Browsing]) -> Weight:
    """Loads the lobby in one fresh context (then creates a Trick & Snipers table there, with
    two basic bots), and that table page in another fresh context holding the seat."""
    lobby = open_page("desktop")
    lobby.goto("")
    lobby.page.wait_for_selector("#game-types li[data-type]", state="attached")
    lobby.page.wait_for_load_state("load")
    lobby.page.wait_for_timeout(SETTLE_MS)
    lobby_bytes, lobby_responses = lobby.record.bytes_since(0), len(lobby.record.responses)

    game_id = create_table(lobby, "trick_and_snipers", 3, ["bot:basic", "bot:basic"])
    entry = lobby.seat_entry(game_id)
    assert entry is not None
    table = open_page("phone")
    table.hold_seat(game_id, entry["seat"], entry["token"], entry["name"])
    table.goto(f"#/games/{game_id}")
    TablePage(table).wait_for_table(game_id, seat=entry["seat"])
    table.page.wait_for_selector("#hand button.card")
    table.page.wait_for_load_state("load")
    table.page.wait_for_timeout(SETTLE_MS)
    responses = lobby.record.responses[:lobby_responses] + table.record.responses
    largest = sorted(((r.size or 0, r.url) for r in responses), reverse=True)[:5]
    return Weight(
        lobby_bytes,
        lobby_responses,
        table.record.bytes_since(0),
        len(table.record.responses),
        largest,
    )
