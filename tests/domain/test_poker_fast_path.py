"""The fast hand values (`hand_strength` on Cards, `strength_of_ids` on `card_id`s) give exactly
the reference ranking: on many seeded random hands of 5, 6 and 7 cards they order hands as the
slow reference of test_poker_ranking does, and equal phevaluator's own value for the cards named
in its text form (an id mapping independent of ours)."""

from __future__ import annotations

import random

import pytest
from phevaluator import evaluate_cards

from domain.games.saint_poker.state import DECK
from domain.shared.poker import WORST, card_id, hand_strength, strength_of_ids
from tests.domain.test_poker_ranking import reference

RANK_CHARS = "..23456789TJQKA"  # index = rank


def random_hands(seed: int, count: int) -> list[list]:
    rng = random.Random(seed)
    return [rng.sample(DECK, rng.choice((5, 6, 7, 7))) for _ in range(count)]


def test_every_card_has_its_own_id_from_0_to_51():
    assert sorted(card_id(card) for card in DECK) == list(range(52))


def test_both_fast_entries_give_phevaluators_value_for_the_same_cards_in_text_form():
    for hand in random_hands(seed=11, count=4000):
        text = [f"{RANK_CHARS[card.rank]}{card.suit[0]}" for card in hand]
        expected = WORST + 1 - evaluate_cards(*text)
        assert hand_strength(hand) == expected
        assert strength_of_ids([card_id(card) for card in hand]) == expected


def test_fast_values_order_random_hands_exactly_as_the_slow_reference():
    hands = random_hands(seed=5, count=3000)
    by_reference = sorted(hands, key=reference)
    keys = [reference(hand) for hand in by_reference]
    values = [hand_strength(hand) for hand in by_reference]
    for i in range(1, len(hands)):
        if keys[i] == keys[i - 1]:
            assert values[i] == values[i - 1], (by_reference[i - 1], by_reference[i])
        else:
            assert values[i] > values[i - 1], (by_reference[i - 1], by_reference[i])


@pytest.mark.parametrize("size", [0, 4, 8])
def test_a_hand_of_other_than_five_to_seven_cards_is_refused(size):
    with pytest.raises(ValueError, match="5 to 7 cards"):
        strength_of_ids(list(range(size)))
    with pytest.raises(ValueError, match="5 to 7 cards"):
        hand_strength(DECK[:size])
