"""The strong bots play legal whole games, and decide from their seat's view alone: two tables
that differ only in cards the seat cannot see get the very same decision."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.games import get_game_type
from domain.games.trick_and_snipers import strong as trick_and_snipers
from domain.games.trick_and_snipers.inference import (
    Dealer,
    lead_excludes,
    misfits,
    play_excludes,
    plays_in_sight,
    won_plays,
)
from domain.games.trick_and_snipers.state import deck_for
from domain.kit.budget import Iterations
from domain.search.views import cards_of, plays_of
from domain.shared.tricks import Play
from domain.tables.selfplay import play_out
from domain.tables.view import view_table
from tests.domain.strong_support import decision_points, hidden_shuffled, quick
from tests.domain.tns_support import card, cards

STRONG_GAMES = [
    ("trick_and_snipers", 4),
    ("st_patrick", 3),
    ("ouroboros_trick", 4),
    ("saint_poker", 3),
]


@pytest.mark.parametrize(("game_id", "players"), STRONG_GAMES)
def test_strong_bots_play_whole_games_legally_beside_the_other_levels(game_id, players):
    game = quick(get_game_type(game_id), iterations=12)
    for seed, levels in enumerate(
        (["strong"] * players, ["strong", "basic", "random", "basic", "basic"][:players])
    ):
        # self-play raises on any bot failure: an illegal action is never papered over
        table, _ = play_out(game, levels, random.Random(seed))
        assert table.status == "finished"


@pytest.mark.parametrize(("game_id", "players"), STRONG_GAMES)
def test_the_strong_bot_decides_the_same_whatever_the_cards_it_cannot_see(game_id, players):
    game, strong = get_game_type(game_id), get_game_type(game_id).bots["strong"]
    points = [
        point for seed in range(11, 15) for point in decision_points(game, players, seed, every=3)
    ][:12]
    for checked, (table, seat) in enumerate(points):
        other = hidden_shuffled(table, seat, random.Random(checked))
        assert other.game != table.game  # the hidden cards really moved
        view = view_table(table, seat)
        assert view_table(other, seat) == view
        mine = strong(view, random.Random(5), Iterations(25))
        assert strong(view_table(other, seat), random.Random(5), Iterations(25)) == mine
    assert len(points) == 12


def basic_games_seen(games: int) -> Iterator[tuple[int, Any, int, dict]]:
    """(players, table, seat, the seat's view) at decision points of `games` games of basic
    bots, 3 to 5 players in turn."""
    game = get_game_type("trick_and_snipers")
    for seed in range(games):
        players = 3 + seed % 3
        for table, seat in decision_points(game, players, seed, every=2):
            yield players, table, seat, view_table(table, seat)


def last_plays(view: dict) -> tuple[Play, ...]:
    return plays_of(view["last_trick"]["plays"]) if view["last_trick"] else ()


def test_no_card_ruled_out_by_the_plays_in_sight_is_in_the_hand_a_basic_bot_really_holds():
    ruled = 0
    for players, table, _, view in basic_games_seen(9):
        face_up = [
            won_plays(other["seat"], cards_of(trick), players)
            for other in view["seats"]
            for trick in other["face_up_tricks"]
        ]
        for plays in (plays_of(view["trick"]), last_plays(view), *face_up):
            for i, play in enumerate(plays):
                out = play_excludes(plays[:i], play.card, i == players - 1, deck_for(players))
                assert not out & set(table.game.hands[play.seat])
                ruled += len(out)
    assert ruled > 1000


def test_a_face_up_trick_tells_who_played_each_card_from_its_winner():
    plays = won_plays(2, cards("r3 r9 y4"), 3)
    assert plays == (Play(1, card("r3")), Play(2, card("r9")), Play(0, card("y4")))


def test_a_seat_that_ducks_a_trick_holding_a_7_holds_no_card_that_would_take_it():
    pool = cards("r2 r4 r5 r6 r8 r12 y5")
    assert play_excludes((Play(0, card("r7")),), card("r3"), False, pool) == set(
        cards("r4 r5 r6 r8 r12")
    )


def test_the_plays_in_sight_are_all_basic_ones_from_the_hands_basic_bots_really_held():
    checked = 0
    for players, table, seat, view in basic_games_seen(6):
        if view["you"]["legal_actions"][0]["type"] != "play_card":
            continue
        hands = {s: list(hand) for s, hand in enumerate(table.game.hands) if s != seat}
        seen = plays_in_sight(plays_of(view["trick"]), last_plays(view), seat, players)
        assert misfits(hands, seen) == 0
        checked += 1
    assert checked > 30


def test_a_lead_rules_out_the_cards_the_basic_bot_would_have_led_before_it():
    excluded = lead_excludes(card("y5"), cards("r3 r5 r7 y4 y6 g5 b1 b12"))
    assert excluded == set(cards("r3 r5 y4 b1"))  # the 7 is never led, a later 5 comes after


def test_a_lead_the_basic_bot_would_not_make_from_the_hand_does_not_fit_it():
    trick = (Play(1, card("r6")),)
    seen = plays_in_sight(trick, (), 0, 3)
    assert misfits({1: cards("r2 y9"), 2: cards("g3")}, seen) == 1
    assert misfits({1: cards("r9 y9"), 2: cards("g3")}, seen) == 0


def test_a_deal_gives_no_seat_a_card_it_excludes_and_none_comes_out_when_none_can():
    pool, reds = cards("r1 r2 r3 y1 y2 y3 g1"), set(cards("r1 r2 r3"))
    fixed = {2: [card("y1")]}
    for seed in range(20):
        hands = Dealer(pool, {1: 3, 2: 3}, {1: reds})(random.Random(seed), fixed)
        assert hands is not None and sorted(hands[1]) == sorted(cards("y2 y3 g1"))
        assert card("y1") in hands[2] and len(set(hands[2]) & reds) == 2
    assert Dealer(pool, {1: 3, 2: 3}, {1: reds | {card("g1")}})(random.Random(0), fixed) is None


def test_the_strong_bot_deals_a_leader_none_of_the_cards_it_would_have_led_instead():
    game, checked = get_game_type("trick_and_snipers"), 0
    for seed in range(6):
        for table, seat in decision_points(game, 4, seed):
            view = view_table(table, seat)
            trick = plays_of(view["trick"])
            if (
                not trick
                or trick[0].seat == seat
                or view["you"]["legal_actions"][0]["type"] != "play_card"
            ):
                continue
            lead, rng = trick[0], random.Random(checked)
            for _ in range(5):
                held = trick_and_snipers.play_world(view, rng).hands[lead.seat]
                assert not set(held) & lead_excludes(lead.card, deck_for(4))
            checked += 1
    assert checked > 20
