"""The worlds a strong bot searches are consistent with its view: its own hand is its own, every
other seat holds as many cards as it does, no card seen played is in any hand, no card is twice,
no seat holds a suit it has shown it lacks, and cards the seat passed stay with the neighbour
while every played card is in sight."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.games import get_game_type
from domain.games.ouroboros_trick import strong as ouroboros_trick
from domain.games.st_patrick import strong as st_patrick
from domain.games.trick_and_snipers import strong as trick_and_snipers
from domain.kit.cards import Card
from domain.search.views import cards_of, pairs, plays_of
from domain.search.worlds import deal_hidden, voids_in
from domain.tables.view import view_table
from tests.domain.strong_support import decision_points


def seen_played(view: dict[str, Any]) -> set[Card]:
    last = view["last_trick"]["plays"] if view["last_trick"] else []
    seen = {play.card for play in plays_of([*view["trick"], *last])}
    for seat in view["seats"]:
        for cards in seat.get("face_up_tricks", []):
            seen |= set(cards_of(cards))
        seen |= set(cards_of(seat.get("bite_cards", [])))
    return seen


def check_world(view: dict[str, Any], hands: list[list[Card]]) -> None:
    me = view["you"]["seat"]
    assert sorted(hands[me]) == sorted(cards_of(view["you"]["hand"]))
    assert [len(hand) for hand in hands] == [seat["hand_count"] for seat in view["seats"]]
    everything = [card for hand in hands for card in hand]
    assert len(everything) == len(set(everything))
    assert not set(everything) & seen_played(view)
    last = plays_of(view["last_trick"]["plays"]) if view["last_trick"] else ()
    for seat, suits in voids_in([pairs(plays_of(view["trick"])), pairs(last)]).items():
        assert not {card.suit for card in hands[seat]} & suits


PLAYING: list[tuple[str, int, Callable[[dict[str, Any], random.Random], list[list[Card]]]]] = [
    ("trick_and_snipers", 4, lambda view, rng: trick_and_snipers.play_world(view, rng).hands),
    ("st_patrick", 4, lambda view, rng: st_patrick.hunt_world(view, rng).hands),
    ("st_patrick", 3, lambda view, rng: st_patrick.relic_world(view, rng).hands),
]


@pytest.mark.parametrize(("game_id", "players", "world"), PLAYING)
def test_a_sampled_world_fits_everything_the_seat_was_shown(game_id, players, world):
    game, voids_checked, points = get_game_type(game_id), 0, 0
    phase = "relics" if world is PLAYING[2][2] else "playing"
    for seed in range(6):
        for table, seat in decision_points(game, players, seed):
            if table.game.phase != phase:
                continue
            view = view_table(table, seat)
            rng = random.Random(points)
            for _ in range(3):
                check_world(view, world(view, rng))
            points += 1
            last = plays_of(view["last_trick"]["plays"]) if view["last_trick"] else ()
            voids_checked += bool(voids_in([pairs(plays_of(view["trick"])), pairs(last)]))
    assert points > 20 and (voids_checked > 5 or phase == "relics")


def test_the_cards_a_seat_passed_stay_with_its_left_neighbour_while_all_play_is_in_sight():
    game = get_game_type("trick_and_snipers")
    checked = 0
    for table, seat in decision_points(game, 3, seed=4):
        view = view_table(table, seat)
        if table.game.phase != "playing" or view["trick_number"] > 1:
            continue
        left = (seat + 1) % 3
        passed = set(cards_of(view["you"]["passed_cards"])) - seen_played(view)
        hands = trick_and_snipers.play_world(view, random.Random(checked)).hands
        assert passed <= set(hands[left])
        checked += 1
    assert checked >= 2


def test_a_deal_keeps_every_void_when_one_is_possible():
    pool = [Card(suit, rank) for suit in ("red", "blue") for rank in range(1, 5)]
    for seed in range(30):
        hands, rest = deal_hidden(
            pool, {1: 4, 2: 2}, random.Random(seed), fixed={2: [Card("red", 1)]},
            voids={1: {"red"}},
        )  # fmt: skip
        assert sorted(hands[1]) == [Card("blue", rank) for rank in range(1, 5)]
        assert Card("red", 1) in hands[2] and len(hands[2]) == 2 and len(rest) == 2


def test_an_ouroboros_world_deals_every_pool_by_its_public_size_and_keeps_ours():
    game, checked = get_game_type("ouroboros_trick"), 0
    for table, seat in decision_points(game, 5, seed=2):
        view = view_table(table, seat)
        world = ouroboros_trick.world(view, random.Random(checked))
        assert [len(pool) for pool in world.pools] == [s["pool_count"] for s in view["seats"]]
        assert sorted(world.pools[seat]) == sorted(cards_of(view["you"]["pool"]))
        assert sorted(world.hands[seat]) == sorted(cards_of(view["you"]["hand"]))
        assert [len(hand) for hand in world.hands] == [s["hand_count"] for s in view["seats"]]
        held = [c for hand in world.hands for c in hand] + [c for p in world.pools for c in p]
        assert len(held) == len(set(held))
        # the last trick's cards went to a pool and may be back in a hand; this trick's may not
        assert not set(held) & {play.card for play in plays_of(view["trick"])}
        for other, suits in voids_in([pairs(plays_of(view["trick"]))]).items():
            assert not {card.suit for card in world.hands[other]} & suits
        checked += 1
    assert checked > 10
