"""The deal every game shares (domain.shared.dealing) and how its events are read back when
stored."""

from __future__ import annotations

from domain.kit.cards import Card, build_deck
from domain.kit.codec import deal_commitment, from_json, to_json
from domain.shared.dealing import DealCommitted, DeckSealed, HandDealt, deal_events

DECK = build_deck(("red", "blue"), range(1, 6))


def test_the_deal_publishes_the_commitment_gives_each_seat_its_hand_and_seals_the_deck():
    committed, *hands, sealed = deal_events(3, DECK, "salt", (4, 4), leader=1)
    assert committed == DealCommitted(3, deal_commitment("salt", DECK), (4, 4), first_leader=1)
    assert hands == [HandDealt(0, DECK[:4]), HandDealt(1, DECK[4:8])]
    assert sealed == DeckSealed(3, DECK, "salt") and sealed.visible_to() == ()


def test_a_trick_and_snipers_deal_as_stored_reads_back_unchanged():
    stored = {"round": 1, "commitment": "c", "first_leader": 2, "hand_sizes": [12, 12, 12]}
    event = from_json(DealCommitted, stored)
    assert event == DealCommitted(1, "c", (12, 12, 12), first_leader=2)
    assert list(to_json(event)) == list(stored)  # the same keys, in the same order


def test_a_deal_stored_without_a_first_leader_reads_back_with_none():
    event = from_json(DealCommitted, {"round": 2, "commitment": "c", "hand_sizes": [9] * 4})
    assert event.first_leader is None and event.hand_sizes == (9, 9, 9, 9)


def test_a_card_of_the_sealed_deck_survives_the_codec():
    sealed = DeckSealed(1, (Card("red", 1),), "s")
    assert from_json(DeckSealed, to_json(sealed)) == sealed
