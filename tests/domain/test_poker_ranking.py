"""Hand ranking (P3): every category, the wheel, kickers, exact ties; a hand-written table of
pairs, and a property test against a slow reference written here."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.saint_poker.state import DECK, RANKS, SUITS
from domain.shared.poker import CATEGORIES, category_of, describe, rank_hand
from tests.domain.sp_support import cards

# (hand, other hand, ">" the first wins, "<" the second wins, "=" a tie), worked out by hand.
PAIRS = [
    ("As Ks Qs Js Ts", "Kh Qh Jh Th 9h", ">"),  # straight flushes by their top card
    ("5d 4d 3d 2d Ad", "6c 5c 4c 3c 2c", "<"),  # the wheel is the lowest straight flush
    ("5d 4d 3d 2d Ad", "9s 9h 9d 9c Ah", ">"),  # any straight flush beats four of a kind
    ("9s 9h 9d 9c 2h", "8s 8h 8d 8c Ah", ">"),
    ("9s 9h 9d 9c 3h", "9s 9h 9d 9c 2h", ">"),  # the kicker of four of a kind
    ("2s 2h 2d 2c 3h", "Ks Kh Kd Qc Qh", ">"),
    ("Ks Kh Kd 2c 2h", "Qs Qh Qd Ac Ah", ">"),  # full houses: the three first
    ("Ks Kh Kd 3c 3h", "Ks Kh Kc 2c 2h", ">"),  # then the pair
    ("2s 2h 2d 3c 3h", "As Ks Qs Js 9s", ">"),
    ("As Ks Qs Js 9s", "Ah Kh Qh Jh 8h", ">"),  # flushes down to the fifth card
    ("Ah Kh Qh Jh 8h", "Ad Kd Qd Jd 8d", "="),  # no suit order
    ("7c 5c 4c 3c 2c", "As Kh Qd Jc Ts", ">"),
    ("As Kh Qd Jc Ts", "Ks Qh Jd Tc 9s", ">"),
    ("5s 4h 3d 2c Ah", "6s 5h 4d 3c 2h", "<"),  # the wheel is the lowest straight
    ("5s 4h 3d 2c Ah", "Ks Kh Kd 7c 3h", ">"),
    ("5s 4h 3d 2c Ah", "5d 4c 3h 2s Ac", "="),
    ("Ks Kh Kd 7c 3h", "Qs Qh Qd Ac Kc", ">"),
    ("7s 7h 7d Ac 3h", "7s 7h 7c Kc Qh", ">"),  # three of a kind: first kicker
    ("7s 7h 7d Ac 3h", "7s 7h 7c Ad 2h", ">"),  # second kicker
    ("2s 2h 2d 4c 3h", "As Ah Kd Kc Qh", ">"),
    ("As Ah Kd Kc 2h", "As Ah Qd Qc Kh", ">"),  # two pair: the lower pair
    ("Ks Kh Qd Qc 2h", "Ks Kh Jd Jc Ah", ">"),
    ("Ks Kh Qd Qc 3h", "Kc Kd Qs Qh 2h", ">"),  # then the kicker
    ("Ks Kh Qd Qc 3h", "Kc Kd Qs Qh 3c", "="),
    ("3s 3h 2d 2c 4h", "As Ah Kd Qc Jh", ">"),
    ("As Ah Kd Qc Jh", "Ks Kh Ad Qc Jh", ">"),
    ("As Ah Kd Qc Jh", "Ac Ad Kh Qs Th", ">"),  # one pair: the third kicker
    ("As Ah Kd Qc Jh", "Ac Ad Kh Qs Jc", "="),
    ("As Ah 4d 3c 2h", "Ac Ad 5h 3s 2c", "<"),
    ("2s 2h 5d 4c 3h", "As Kh Qd Jc 9s", ">"),
    ("As Kh Qd Jc 9s", "As Kh Qd Jc 8s", ">"),  # high card: the fifth card
    ("As Kh Qd Jc 9s", "Ks Qh Jd Tc 8s", ">"),
    ("7s 5h 4d 3c 2h", "7c 5d 4h 3s 2d", "="),
    ("8s 5h 4d 3c 2h", "7c 6d 5h 4s 2d", ">"),
    ("As 5h 4d 3c 2h", "Ac 6h 4d 3c 2h", ">"),  # A-5-4-3-2 is a straight, A-6-4-3-2 is not
    ("6s 5h 4d 3c 2h", "Ks Kh Kd Kc Ah", "<"),
    ("Ts 9h 8d 7c 6h", "Ts 9h 8d 7c 5h", ">"),
    ("Ks Qs Js Ts 9s", "As Ah Ad Ac Ks", ">"),
    ("Ah Kh Qh Jh Th 2c 3d", "9h 8h 7h 6h 5h Ac Ad", ">"),  # seven cards from here on
    ("Kd Kc 2h 7s 9d 4c 4h", "Kd Kc 2h 7s 9d 3c 3h", ">"),
    ("As Ks Qs Js Ts 2c 3d", "As Ks Qs Js Ts 4h 5h", "="),  # the board plays for both
    ("8s 8h 5d 5c Qh 2c 2d", "8s 8h 5d 5c Qh 3c 4d", "="),  # a third pair that does not play
    ("8s 8h 5d 5c Qh Ac 2d", "8s 8h 5d 5c Qh Kc 2d", ">"),
    ("Ks Kh 9d 9c 4h 4c 2d", "Ks Kh 9d 9c 3h 3c 5d", "<"),  # the kicker beats a third pair
    ("Qs Qh Qd 7c 7h 7s 2c", "Qs Qh Qd 8c 8h 3s 2c", "<"),  # two threes: the lower is a pair
    ("Ah 9h 7h 5h 3h 2h Kc", "Ah 9h 7h 5h 4h Kc Kd", "<"),  # the best five of six hearts
    ("9s 8h 7d 6c 5h 4s 2c", "8s 7h 6d 5c 4h 3s 2c", ">"),  # the top of six in a row
    ("As 2h 3d 4c 5h Kd Qc", "2h 3d 4c 5h 6s Kd Qc", "<"),
    ("9h 8h 7h 6h 5h Ah Kh", "Ah Kh Qh Jh 9h 2c 3c", ">"),  # straight flush over a better flush
    ("Kh Kd Ks 7h 7c 2h 3h", "Ah 9h 7h 2h 3h Kd Ks", ">"),
    ("5s 5h 5d 5c Ks Kh 2d", "5s 5h 5d 5c Qs Qh Jd", ">"),  # the best kicker beside four
    ("Js Jh Ad 9c 7h 4s 2c", "Js Jh Ad 9c 7h 3s 2c", "="),  # a sixth card never plays
    ("Ks Qh 9d 7c 5h 3s 2c", "Ks Qh 9d 7c 4h 3s 2c", ">"),
    ("As Ad Kd Kc Qh Qc 2d", "As Ad Kd Kc Jh Jc Qd", "="),
    ("Qs Kh Ad 2c 3h 9s 8c", "Qs Kh Ad 2c 4h 9s 8c", "="),  # K-A-2 does not wrap around
    ("Ts Jh Qd Kc Ah 2s 3c", "9s Ts Jh Qd Kc 2s 3c", ">"),
    ("6s 6h 6d Ac Kh", "As Ah Kd Kc Qh", ">"),
]


def outcome(first: str, second: str) -> str:
    a, b = rank_hand(cards(first)), rank_hand(cards(second))
    return ">" if a > b else "<" if a < b else "="


def test_the_hand_written_table_holds_at_least_fifty_pairs():
    assert len(PAIRS) >= 50


@pytest.mark.parametrize(("first", "second", "expected"), PAIRS)
def test_each_pair_of_the_table_compares_as_worked_out_by_hand(first, second, expected):
    assert outcome(first, second) == expected
    assert outcome(second, first) == {">": "<", "<": ">", "=": "="}[expected]


@pytest.mark.parametrize(
    ("hand", "category", "name"),
    [
        ("As Ks Qs Js Ts 2c 3d", "straight flush", "ace-high straight flush"),
        ("5h 4h 3h 2h Ah Kd Kc", "straight flush", "five-high straight flush"),
        ("9h 9s 9d 9c 2h 3h 4d", "four of a kind", "four nines"),
        ("Qh Qs Qd 5c 5h 2h 3s", "full house", "full house, queens over fives"),
        ("Qh Qs Qd 5c 5h 5s 3s", "full house", "full house, queens over fives"),
        ("Kh 9h 7h 3h 2h As Ad", "flush", "king-high flush"),
        ("5d 4c 3h 2s Ac Kd Qd", "straight", "five-high straight"),
        ("9d 8c 7h 6s 5c 2d 2h", "straight", "nine-high straight"),
        ("7d 7c 7h Ks 2c 3d 9h", "three of a kind", "three sevens"),
        ("Kd Kc 5h 5s 2c 2d 9h", "two pair", "two pair, kings and fives"),
        ("9d 9c 5h Js 2c 3d 7h", "one pair", "pair of nines"),
        ("Ad Jc 5h 8s 2c 3d 7h", "high card", "ace high"),
        ("7d 5c 4h 3s 2c", "high card", "seven high"),
    ],
)
def test_every_category_is_recognised_and_named(hand, category, name):
    ranked = rank_hand(cards(hand))
    assert (ranked.category, ranked.name) == (category, name)


def test_categories_rank_in_the_standard_order():
    best_of_each = [
        "7d 5c 4h 3s 2c",
        "2d 2c 5h 4s 3c",
        "2d 2c 3h 3s 4c",
        "2d 2c 2h 4s 3c",
        "5d 4c 3h 2s Ac",
        "7c 5c 4c 3c 2c",
        "2d 2c 2h 3s 3c",
        "2d 2c 2h 2s 3c",
        "5c 4c 3c 2c Ac",
    ]
    ranked = [rank_hand(cards(hand)) for hand in best_of_each]
    assert [hand.category for hand in ranked] == list(CATEGORIES)
    assert ranked == sorted(ranked) and len({hand.strength for hand in ranked}) == len(ranked)


def test_equal_hands_are_equal_values_whatever_their_names_and_suits():
    a, b = rank_hand(cards("Ah Kh Qh Jh 8h 2c 3d")), rank_hand(cards("Ad Kd Qd Jd 8d 4c 2s"))
    assert a == b and a.strength == b.strength and a.name == b.name


# --- a slow reference: all 21 five-card subsets, each as (category, tiebreak) ----------------


def reference_five(five) -> tuple[int, tuple[int, ...]]:
    ranks = sorted((card.rank for card in five), reverse=True)
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card.suit for card in five}) == 1
    top = None
    if len(counts) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [14, 5, 4, 3, 2]:
        top = 5  # the wheel
    if top and flush:
        return 8, (top,)
    if shape == [4, 1]:
        return 7, tuple(by_count)
    if shape == [3, 2]:
        return 6, tuple(by_count)
    if flush:
        return 5, tuple(ranks)
    if top:
        return 4, (top,)
    if shape == [3, 1, 1]:
        return 3, tuple(by_count)
    if shape == [2, 2, 1]:
        return 2, tuple(by_count)
    if shape == [2, 1, 1, 1]:
        return 1, tuple(by_count)
    return 0, tuple(ranks)


def reference(seven) -> tuple[int, tuple[int, ...]]:
    return max(reference_five(five) for five in combinations(seven, 5))


@st.composite
def seven_card_hands(draw):
    """Two 7-card hands, often from a narrow part of the deck so that rare hands come up."""
    suits = draw(st.sets(st.sampled_from(SUITS), min_size=1, max_size=4))
    ranks = draw(st.sets(st.sampled_from(RANKS), min_size=7, max_size=13))
    pool = [card for card in DECK if card.suit in suits and card.rank in ranks]
    first = draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7, unique=True))
    second = draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7, unique=True))
    return first, second


@settings(max_examples=400, deadline=None)
@given(seven_card_hands())
def test_orderings_agree_with_the_slow_reference(hands):
    ours = [rank_hand(hand) for hand in hands]
    theirs = [reference(hand) for hand in hands]
    assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
    assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
    for hand, expected in zip(ours, theirs, strict=True):
        assert CATEGORIES.index(hand.category) == expected[0]


@settings(max_examples=300, deadline=None)
@given(seven_card_hands())
def test_a_remembered_name_is_the_name_the_cards_themselves_give(hands):
    # rank_hand describes each hand class once and then looks the name up by value
    for hand in hands:
        ranked = rank_hand(hand)
        assert ranked.name == describe(category_of(ranked.strength), hand)
