"""The card finder the browser tests search pages with: cards in text, HTML and JSON, in the
spellings of all four games."""

from __future__ import annotations

import pytest

from testing.browser.cards import card_name, cards_in_html, cards_in_json, cards_in_text


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("9 of clover", {("clover", 9)}),
        ("Clover 9 and snake 1", {("clover", 9), ("snake", 1)}),
        ("the queen of hearts", {("hearts", 12)}),
        ("Ace of Spades, 10 of diamonds", {("spades", 14), ("diamonds", 10)}),
        ("Q♥ 10♠ A♣ 2♦", {("hearts", 12), ("spades", 10), ("clubs", 14), ("diamonds", 2)}),
        ("red 12 yellow 1", {("red", 12), ("yellow", 1)}),
        ("Card(suit='blue', rank=7)", {("blue", 7)}),
        ("seat 2 passed 4 cards; margin: 0 5px; color: red 5px", set()),
        ("12 cards, 3 tricks, 20 life", set()),
    ],
)
def test_cards_are_found_in_text(text, cards):
    assert set(cards_in_text(text)) == cards


def test_cards_are_found_in_html_attributes_and_text():
    html = (
        '<ol><li data-version="3">Seat 1 played <b>harp 4</b></li></ol>'
        '<button class="card" data-suit="cross" data-rank="7" aria-label="7 of cross"></button>'
        '<svg><title>king of clubs</title></svg><span title="green 11"></span>'
    )
    found = {card for _, card in cards_in_html(html)}
    assert found == {("harp", 4), ("cross", 7), ("clubs", 13), ("green", 11)}


def test_cards_are_found_in_json_anywhere():
    value = {"views": [{"you": {"hand": [{"suit": "red", "rank": 3}]}}], "log": ["blue 2 won"]}
    assert {card for _, card in cards_in_json(value)} == {("red", 3), ("blue", 2)}


def test_cards_are_named_the_way_the_page_names_them():
    assert card_name(("clover", 9)) == "9 of clover"
    assert card_name(("hearts", 12)) == "queen of hearts"
    assert set(cards_in_text(card_name(("spades", 14)))) == {("spades", 14)}
