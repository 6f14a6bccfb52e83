"""The table can be played from the keyboard alone: on the seat's turn the focus is on a card it
may use, Space or Enter chooses it, Tab moves on, and the send button is reachable."""

from __future__ import annotations

import pytest

from testing.browser.table_page import TablePage, create_table

pytestmark = pytest.mark.browser

FOCUSED = "() => { const a = document.activeElement; return [a.id, a.className, a.disabled]; }"


def focused(page) -> tuple[str, str, bool]:
    return tuple(page.evaluate(FOCUSED))


def test_a_pass_and_a_card_are_played_with_the_keyboard_alone(open_page):
    browsing = open_page("desktop")
    create_table(browsing, "trick_and_snipers", 3, ["bot:basic", "bot:basic"])
    table = TablePage(browsing)
    page = table.page
    table.wait_for_my_turn_or_the_end()
    page.wait_for_function("() => document.activeElement.classList.contains('legal')")
    for picked in range(4):  # the focus starts on a legal card: choose it, then the next
        if picked:
            page.keyboard.press("Tab")
        assert "legal" in focused(page)[1], focused(page)
        page.keyboard.press("Space")
    for _ in range(20):  # on to the Pass button
        if focused(page)[0] == "send-cards":
            break
        page.keyboard.press("Tab")
    assert focused(page)[0] == "send-cards" and not focused(page)[2]
    page.keyboard.press("Enter")

    situation = table.wait_for_my_turn_or_the_end()  # passed; now a card to play, or wait
    if situation["status"] == "active":
        page.wait_for_function("() => document.activeElement.classList.contains('legal')")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')]"
            ".some((li) => li.textContent.startsWith('You played'))"
        )
    moves = 2 if situation["status"] == "active" else 1
    assert [r.status for r in table.answered_actions(moves)][:2] == [201] * moves
    said = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"
    )
    assert any(line.startswith("You passed") for line in said)
