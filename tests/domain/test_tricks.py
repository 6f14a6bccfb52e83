"""The shared trick helpers: must follow, winners, turn order."""

from __future__ import annotations

from domain.shared.tricks import (
    Play,
    best_play,
    highest_of_led,
    led_suit,
    next_seat,
    playable_cards,
)
from tests.domain.tns_support import card, cards


def test_a_hand_with_the_led_suit_may_play_only_that_suit():
    assert playable_cards(cards("r1 y2 r9"), "red") == cards("r1 r9")


def test_a_hand_void_in_the_led_suit_or_leading_may_play_anything():
    assert playable_cards(cards("y2 b9"), "red") == cards("y2 b9")
    assert playable_cards(cards("y2 b9"), None) == cards("y2 b9")


def test_the_highest_card_of_the_led_suit_wins_and_off_suit_cards_never_do():
    trick = (Play(2, card("g3")), Play(0, card("r12")), Play(1, card("g9")))
    assert led_suit(trick) == "green"
    assert highest_of_led(trick) == Play(1, card("g9"))
    assert highest_of_led(()) is None


def test_best_play_lets_the_later_of_equal_keys_win():
    trick = (Play(0, card("r3")), Play(1, card("y9")), Play(2, card("b9")))
    off_suit_rank = lambda play: play.card.rank if play.card.suit != "red" else None  # noqa: E731
    assert best_play(trick, off_suit_rank) == Play(2, card("b9"))


def test_the_next_seat_clockwise_wraps_round_the_table():
    assert [next_seat(seat, 4) for seat in range(4)] == [1, 2, 3, 0]
