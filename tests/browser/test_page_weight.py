"""The pages are light: each page of the web client (the lobby, a table, a guide, the glossary,
the replay viewer, a result screen, my tables, the player's own page and a leaderboard), loaded
in a fresh browser with nothing cached, weighs less than 300 KB with everything it loads. Event
streams are not counted."""

from __future__ import annotations

import pytest

from testing.browser.weight import measure_page_weight

pytestmark = pytest.mark.browser
LIMIT = 300 * 1024


def test_every_page_weighs_less_than_300_kb_with_all_it_loads(open_page, live_server):
    weight = measure_page_weight(open_page, live_server.url)
    print(f"\n{weight.line()} (limit {LIMIT // 1024} KB each)")
    assert {p.page for p in weight.pages} == {
        "lobby", "table", "tables", "me", "guide", "glossary", "replay", "result", "leaderboard"
    }  # fmt: skip
    heavy = [(p.page, p.bytes, p.largest) for p in weight.pages if p.bytes >= LIMIT]
    assert not heavy, heavy
