"""One test (or a few) per ruling O1-O6, written given / when / then."""

from __future__ import annotations

import random

import pytest

from domain.decider import Deal, IllegalAction, InvalidSetup
from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import (
    CardsDiscarded,
    DiscardAwaited,
    GameEnded,
    PoolTaken,
    TrickWon,
)
from domain.games.ouroboros_trick.state import deck_for
from tests.domain.ouro_support import (
    card,
    cards,
    dealt,
    discard,
    play_all,
    playing,
    step,
)
from tests.domain.support import visible_pairs

# O1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "top"), [(3, 9), (4, 12), (5, 15)])
def test_o1_the_deck_has_four_suits_ranked_by_table_size_and_is_dealt_out_12_each(players, top):
    to_deal = GAME.cards_to_deal(GAME.new_game(players, {"first_leader": None}))
    assert len(to_deal) == 4 * top == len(set(to_deal)) == 12 * players
    assert {c.suit for c in to_deal} == {"red", "yellow", "green", "blue"}
    assert {c.rank for c in to_deal} == set(range(1, top + 1))

    state = dealt(players, seed=players)

    assert [len(hand) for hand in state.hands] == [12] * players
    assert sorted(c for hand in state.hands for c in hand) == sorted(to_deal)  # none left over
    assert state.hands[1] == shuffled(players, seed=players)[12:24]  # seat 1: the 2nd dozen


def shuffled(players: int, seed: int) -> tuple:
    """The deck `dealt` deals, shuffled the same way."""
    deck = list(deck_for(players))
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def test_o1_only_3_to_5_players_and_a_deal_of_other_cards_is_refused():
    for players in (2, 6):
        with pytest.raises(InvalidSetup):
            GAME.check_options(players, {"first_leader": None})
    state = GAME.new_game(3, {"first_leader": None})
    with pytest.raises(IllegalAction, match="36 cards"):
        step(state, Deal(deck_for(4)[:36], "salt", 0))


# O2 -----------------------------------------------------------------------------------------


def test_o2_the_first_leader_is_the_deals_random_pick_unless_the_option_names_a_seat():
    assert dealt(4, first_leader=2).leader == 2
    assert dealt(4, first_leader=2, options={"first_leader": 1}).leader == 1
    for bad in (4, -1, "1", True, 1.0):
        with pytest.raises(InvalidSetup):
            GAME.check_options(4, {"first_leader": bad})


def test_o2_players_must_follow_the_led_suit_if_they_can():
    state = playing(["r3 b4", "r5 b12", "y1 y2"])
    state, _ = play_all(state, ["r3"])
    with pytest.raises(IllegalAction, match="follow suit"):
        step(state, GAME.commands["play_card"](seat=1, card=card("b12")))
    assert GAME.legal_actions(state, 1) == [{"type": "play_card", "cards": [card("r5").to_json()]}]
    assert GAME.legal_actions(state, 2) == []  # not seat 2's turn: nothing at all


# O3 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ("r3 r9 r5", 1),  # no trump: the highest of the led suit
        ("r9 y1 r5", 1),  # any trump beats the led suit, however low
        ("r9 y4 b7", 2),  # the highest trump, whatever its suit
        ("r2 b8 g8", 2),  # equal trumps: the later one wins
        ("r2 b8 g7", 1),
    ],
)
def test_o3_a_trump_beats_the_led_suit_and_the_later_of_equal_trumps_wins(plays, winner):
    state = playing(plays.split())  # each seat holds just the card it plays
    _, events = play_all(state, plays.split())
    won = next(e for e in events if isinstance(e, TrickWon))
    assert won.seat == winner


# O4 -----------------------------------------------------------------------------------------


def test_o4_the_winner_pools_the_trick_and_chooses_k_cards_the_lowest_rank_in_it():
    state = playing(["r6 y1 y2 y3 y4", "r9 g1 g2 g3", "r2 b1"], pools=["", "b5", ""])
    state, events = play_all(state, ["r6", "r9", "r2"])
    assert events[-2:] == [TrickWon(1, cards("r6 r9 r2"), 2), DiscardAwaited(1, 2)]
    assert state.pools[1] == cards("b5 r6 r9 r2")
    assert GAME.view(state, None)["pending_discard"] == {"seat": 1, "count": 2}
    with pytest.raises(IllegalAction, match="exactly 2"):
        discard(state, 1, "g1")
    with pytest.raises(IllegalAction, match="do not hold"):
        discard(state, 1, "g1 y1")
    with pytest.raises(IllegalAction, match="more than once"):
        discard(state, 1, "g1 g1")
    with pytest.raises(IllegalAction, match="not your turn"):
        discard(state, 0, "y1 y2")
    state, events = discard(state, 1, "g1 g3")
    assert events == [CardsDiscarded(1, cards("g1 g3"), forced=False)]
    assert state.hands[1] == cards("g2") and state.discards == cards("g1 g3")


def test_o4_short_hand_the_whole_hand_goes_then_the_rest_is_chosen_from_the_pool():
    state = playing(["r6 y1", "r9 g1", "r3 b1"], pools=["", "b7", ""])
    state, events = play_all(state, ["r6", "r9", "r3"])  # k = 3, seat 1 holds 1 card
    assert events[-4:] == [
        TrickWon(1, cards("r6 r9 r3"), 3),
        CardsDiscarded(1, cards("g1"), forced=True),
        PoolTaken(1, cards("b7 r6 r9 r3")),
        DiscardAwaited(1, 2),
    ]
    assert GAME.legal_actions(state, 1) == [
        {"type": "discard", "count": 2, "cards": [c.to_json() for c in cards("r3 r6 r9 b7")]}
    ]


def test_o4_a_discard_with_no_choice_is_made_without_asking():
    # exactly k cards in hand: all of them go; then the empty hand takes the pool (O5)
    state = playing(["r6 y1 y2", "r9 g1 g2", "r2 b1 b2"])
    state, events = play_all(state, ["r6", "r9", "r2"])
    assert events[-3:] == [
        TrickWon(1, cards("r6 r9 r2"), 2),
        CardsDiscarded(1, cards("g1 g2"), forced=True),
        PoolTaken(1, cards("r6 r9 r2")),
    ]
    assert state.phase == "playing" and GAME.to_act(state) == (1,)
    # not enough even with the pool: everything is discarded
    state = playing(["r7 y1", "r9 g1", "r8 b1"])
    _, events = play_all(state, ["r7", "r9", "r8"])  # k = 7: 1 in hand + 3 in the pool
    assert events[-4:-1] == [
        CardsDiscarded(1, cards("g1"), forced=True),
        PoolTaken(1, cards("r7 r9 r8")),
        CardsDiscarded(1, cards("r7 r9 r8"), forced=True),
    ]


def test_o4_no_card_is_played_while_the_winner_still_owes_a_discard():
    state = playing(["r6 y1 y2", "r9 g1 g2 g3", "r2 b1 b2"])
    state, _ = play_all(state, ["r6", "r9", "r2"])
    assert GAME.to_act(state) == (1,) and state.phase == "discarding"
    with pytest.raises(IllegalAction, match="discarding"):
        step(state, GAME.commands["play_card"](seat=1, card=card("g1")))


# O5 -----------------------------------------------------------------------------------------


def test_o5_every_empty_hand_takes_its_pool_and_a_player_with_neither_loses():
    state = playing(["r6 y1 y2", "r9 g1 g2 g3", "r2"], pools=["", "", "b4"])
    state, events = play_all(state, ["r6", "r9", "r2"])
    state, events = discard(state, 1, "g1 g2")
    assert events[1:] == [PoolTaken(2, cards("b4"))]  # seat 2 played its last card
    assert not GAME.is_terminal(state)

    state = playing(["r6 y1 y2", "r9 g1 g2 g3", "r2"])
    state, events = play_all(state, ["r6", "r9", "r2"])
    state, events = discard(state, 1, "g1 g2")
    final = {
        "0": {"hand_count": 2, "pool_count": 0},
        "1": {"hand_count": 1, "pool_count": 3},
        "2": {"hand_count": 0, "pool_count": 0},
    }
    assert events[1:] == [GameEnded(winners=(0, 1), losers=(2,), final=final)]
    assert GAME.is_terminal(state) and GAME.to_act(state) == ()
    assert GAME.view(state, None)["result"]["losers"] == [2]


def test_o5_several_players_can_lose_together():
    state = playing(["r6 y1", "r9 g1 g2", "r2", "r3"])
    _, events = play_all(state, ["r6", "r9", "r2", "r3"])  # k = 2: seat 1 owes 2 of 2
    assert events[-1].winners == (0, 1) and events[-1].losers == (2, 3)


def test_o5_everyone_can_lose():
    state = playing(["r5", "r9", "r6"])
    _, events = play_all(state, ["r5", "r9", "r6"])  # k = 5: seat 1 discards all 3 pooled
    assert events[-1] == GameEnded(
        winners=(),
        losers=(0, 1, 2),
        final={str(s): {"hand_count": 0, "pool_count": 0} for s in range(3)},
    )


# O6 -----------------------------------------------------------------------------------------


def test_o6_sizes_discards_and_the_discard_top_are_public_pools_only_to_their_owner():
    state = playing(["r6 y1 y2 y3", "r9 g1 g2 g3", "r2 b1 b2"], pools=["", "b7", ""])
    state, _ = play_all(state, ["r6", "r9", "r2"])
    state, events = discard(state, 1, "g3 g1")
    assert events[0].visible_to() is None  # a discard is public the moment it is made
    spectator = GAME.view(state, None)
    assert [(s["hand_count"], s["pool_count"]) for s in spectator["seats"]] == [
        (3, 0),
        (1, 4),
        (2, 0),
    ]
    assert spectator["discard_top"] == card("g1").to_json()
    assert spectator["discard_count"] == 2
    assert "you" not in spectator
    pool = {("blue", 7), ("red", 6), ("red", 9), ("red", 2)}
    assert {(c["suit"], c["rank"]) for c in GAME.view(state, 1)["you"]["pool"]} == pool
    for seat in (None, 0, 2):
        shown = visible_pairs(GAME.view(state, seat))
        assert ("blue", 7) not in shown and ("green", 3) not in shown  # not the pile's top


def test_o6_a_pool_taken_into_a_hand_is_a_count_to_everyone_but_its_owner():
    taken = PoolTaken(1, cards("b7 r6"))
    assert taken.visible_to() == (1,)
    assert taken.redacted() == {"seat": 1, "count": 2}
