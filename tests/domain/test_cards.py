"""Cards decoded from JSON: equal values, one shared object, and a bound on what is shared."""

from __future__ import annotations

from domain.kit import cards
from domain.kit.cards import Card


def test_a_card_decoded_twice_is_one_object_equal_to_a_new_card():
    first = Card.from_json({"suit": "hearts", "rank": 7})
    second = Card.from_json({"suit": "hearts", "rank": 7})
    assert first is second and first == Card("hearts", 7)


def test_different_cards_stay_different():
    assert Card.from_json({"suit": "hearts", "rank": 7}) != Card.from_json(
        {"suit": "hearts", "rank": 8}
    )


def test_whatever_is_decoded_the_shared_cards_stay_bounded(monkeypatch):
    monkeypatch.setattr(cards, "_CARDS", {})  # the process's own stays as it was
    for rank in range(cards.MAX_SHARED_CARDS + 500):
        decoded = Card.from_json({"suit": "made-up", "rank": rank})
        assert decoded == Card("made-up", rank)
    assert len(cards._CARDS) <= cards.MAX_SHARED_CARDS
