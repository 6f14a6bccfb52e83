"""The page is light: every response body of loading the lobby and then a table page (each in a
fresh browser, nothing cached) adds up to less than 300 KB. Event streams are not counted."""

from __future__ import annotations

import pytest

from tests.browser.weight import measure_page_weight

pytestmark = pytest.mark.browser
LIMIT = 300 * 1024


def test_the_lobby_and_a_table_page_weigh_less_than_300_kb(open_page):
    weight = measure_page_weight(open_page)
    print(f"\n{weight.line()} (limit {LIMIT // 1024} KB)")
    assert weight.total < LIMIT, f"{weight.total} bytes; the largest: {weight.largest}"
