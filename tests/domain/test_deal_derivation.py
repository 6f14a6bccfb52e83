"""A deal derived from seeds (domain.shared.deal_derivation, docs/audit.md section 7): a shuffle of
exactly the cards, the same for the same seeds, another for any other seed, game or round, and
unbiased: every order equally likely, draws of the last incomplete group thrown away."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from itertools import permutations

import pytest

from domain.kit.cards import build_deck
from domain.shared.deal_derivation import DealStream, deal_context, derive_deal

DECK = build_deck(("red", "blue", "green", "yellow"), range(1, 13))
SERVER_SEED = "ab" * 32
SEEDS = ["ann's seed", None, "bob"]
GAME = "c0ffee00-0000-4000-8000-000000000001"


def derived(server_seed=SERVER_SEED, seeds=SEEDS, game=GAME, round_number=1, cards=DECK):
    return derive_deal(server_seed, seeds, game, round_number, cards)


def test_a_derived_deck_holds_each_card_once():
    assert sorted(derived().deck) == sorted(DECK)


def test_the_same_seeds_derive_the_same_deal_whatever_order_the_cards_come_in():
    assert derived() == derived(cards=tuple(reversed(DECK)))


@pytest.mark.parametrize(
    "changed",
    [
        {"server_seed": "ac" * 32},
        {"seeds": ["ann's seed", None, "bob!"]},
        {"seeds": ["bob", None, "ann's seed"]},  # the same seeds at other seats
        {"game": "c0ffee00-0000-4000-8000-000000000002"},
        {"round_number": 2},
    ],
)
def test_any_other_seed_game_or_round_derives_another_deal(changed):
    assert derived(**changed).deck != derived().deck


def test_the_stream_is_hmac_sha256_of_the_context_and_a_big_endian_counter():
    context = deal_context(SEEDS, GAME, 1)
    key = bytes.fromhex(SERVER_SEED)
    blocks = [
        hmac.new(key, context + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in (0, 1)
    ]
    assert DealStream(key, context).read(64) == b"".join(blocks)


def test_the_context_is_the_canonical_json_of_the_seeds_the_game_and_the_round():
    assert (
        deal_context(['a "b"', None], GAME, 3)
        == (
            '{"client_seeds":["a \\"b\\"",null],"game_id":"' + GAME + '",'
            '"purpose":"cardroom-deal","round":3}'
        ).encode()
    )


def test_a_word_in_the_last_incomplete_group_is_thrown_away():
    # Given a stream whose words we read ourselves
    key, context = bytes.fromhex(SERVER_SEED), b"test"
    words_read = DealStream(key, context)
    words = [int.from_bytes(words_read.read(4), "big") for _ in range(40)]
    # When we draw from 2**31 + 1 values, where a word of 2**31 + 1 or more is refused
    n = 2**31 + 1
    stream = DealStream(key, context)
    draws = [stream.draw(n) for _ in range(10)]
    # Then the draws are the words under the limit, in order
    assert draws == [word for word in words if word < n][:10]
    assert any(word >= n for word in words[:12])  # some were thrown away here


def test_every_order_of_three_cards_is_about_equally_likely():
    counts = Counter(
        derive_deal(f"{seed:064x}", [None, None, None], GAME, 1, DECK[:3]).deck
        for seed in range(6000)
    )
    assert set(counts) == set(permutations(DECK[:3]))
    assert all(900 < count < 1100 for count in counts.values()), counts


def test_every_seat_may_lead_first():
    leaders = Counter(
        derive_deal(f"{seed:064x}", SEEDS, GAME, 1, DECK[:6]).first_leader for seed in range(600)
    )
    assert set(leaders) == {0, 1, 2}


def test_a_draw_from_no_values_or_more_than_a_word_holds_is_refused():
    stream = DealStream(b"k", b"c")
    with pytest.raises(ValueError):
        stream.draw(0)
    with pytest.raises(ValueError):
        stream.draw(2**32 + 1)
