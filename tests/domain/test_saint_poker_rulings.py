"""One test (or a few) per ruling P1-P6 and G3, written given / when / then."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.decider import Automatic, IllegalAction, InvalidSetup
from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import (
    CardPickedUp,
    CardsRevealed,
    CommitRiverCard,
    GameEnded,
    PickUp,
    RevealCards,
    RevealChosen,
    RiverCardCommitted,
    RiverCompleted,
    RoundEnded,
    RoundScored,
    RoundStarted,
)
from domain.games.saint_poker.scoring import round_points
from domain.games.saint_poker.state import on_the_table
from tests.domain.sp_support import (
    card,
    cards,
    commit_all,
    deal,
    dealt,
    fixed_deck,
    name_of,
    pick_in_order,
    reveal_all,
    score,
    scoring_state,
    step,
)
from tests.domain.support import visible_cards

# The rulebook's example round, for 4 players (A-D are seats 0-3); the river is 9h (the first
# future river) and the committed 8h 7h 2c 3s.
EXAMPLE_HANDS = ["8h Td 6c", "7h 6h 5h", "2c Kh 4h", "3s 6d 5c"]
EXAMPLE_REVEALS = ["Td 6c", "6h 5h", "Kh 4h", "6d 5c"]


def example_round_until_reveal():
    state, _ = deal(4, fixed_deck(EXAMPLE_HANDS, future_river="9h", deck="Jc"))
    return commit_all(state, ["8h", "7h", "2c", "3s"])[0]


def example_round():
    """The example round, revealed and waiting for its scoring."""
    return reveal_all(example_round_until_reveal(), EXAMPLE_REVEALS)[0]


def reveal_rest(state):
    """Seats 1-3 reveal as in the example (seat 0 has already)."""
    events = []
    for seat in (1, 2, 3):
        state, new = step(state, RevealCards(seat, cards(EXAMPLE_REVEALS[seat])))
        events += new
    return state, events


def first_cards(state, seat: int, count: int) -> str:
    return " ".join(name_of(c) for c in state.hands[seat][:count])


# P1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "future", "deck"), [(2, 3, 29), (3, 2, 20), (4, 1, 11)])
def test_p1_ten_cards_each_and_a_future_river_that_shrinks_with_more_players(players, future, deck):
    to_deal = GAME.cards_to_deal(GAME.new_game(players, {}))
    assert len(to_deal) == len(set(to_deal)) == 52
    assert {c.suit for c in to_deal} == {"spades", "hearts", "diamonds", "clubs"}
    assert {c.rank for c in to_deal} == set(range(2, 15))

    state = dealt(players)

    assert [len(hand) for hand in state.hands] == [10] * players
    # Round 1 has begun: the first future river moved in and the next one was turned.
    assert len(state.river) == len(state.future_river) == future
    assert len(state.deck) == deck - future


def test_p1_five_players_have_no_future_river_and_a_deck_of_two():
    state = dealt(5)
    assert state.river == state.future_river == () and len(state.deck) == 2


def test_p1_saint_poker_is_for_two_to_five_players():
    for players in (1, 6):
        with pytest.raises(InvalidSetup):
            GAME.check_options(players, {})
    assert (GAME.min_players, GAME.max_players) == (2, 5)


def test_p1_a_fixed_deck_deals_seats_then_the_future_river_then_the_deck():
    deck = fixed_deck(["As", "Ks"], future_river="2c 3c 4c", deck="5c 6c 7c")
    state, events = deal(2, deck)
    assert state.hands[0] == deck[:10] and state.hands[1] == deck[10:20]
    assert events[-1] == RoundStarted(1, cards("2c 3c 4c"), cards("5c 6c 7c"))
    assert state.deck == deck[26:]


# P2 and G3 ----------------------------------------------------------------------------------


def test_p2_commits_stay_private_until_every_seat_has_committed_then_complete_the_river():
    state = dealt(3, seed=1)
    start = state.river
    first = state.hands[0][0]
    state, events = step(state, CommitRiverCard(0, first))

    assert events == [RiverCardCommitted(0, first)]
    assert events[0].visible_to() == (0,) and events[0].redacted() == {"seat": 0}
    assert GAME.to_act(state) == (1, 2) and state.river == start
    other = GAME.view(state, 1)
    assert [s["has_committed"] for s in other["seats"]] == [True, False, False]
    assert first not in visible_cards(other)
    assert GAME.view(state, 0)["you"]["committed_card"] == first.to_json()
    with pytest.raises(IllegalAction, match="cannot be changed"):
        step(state, CommitRiverCard(0, state.hands[0][0]))

    committed = (first, state.hands[1][0], state.hands[2][0])
    state, _ = step(state, CommitRiverCard(1, committed[1]))
    state, events = step(state, CommitRiverCard(2, committed[2]))

    assert events[-1] == RiverCompleted(1, committed)
    assert state.river == start + committed and len(state.river) == 5
    assert state.phase == "revealing" and GAME.to_act(state) == (0, 1, 2)


def test_p2_reveals_stay_private_until_every_seat_has_revealed():
    state = example_round_until_reveal()
    state, events = step(state, RevealCards(0, cards("Td 6c")))

    assert events == [RevealChosen(0, cards("Td 6c"))]
    assert events[0].redacted() == {"seat": 0, "count": 2}
    for viewer in (None, 1, 2, 3):
        assert not visible_cards(GAME.view(state, viewer)) & set(cards("Td 6c"))
    assert GAME.view(state, 0)["you"]["chosen_cards"] == [c.to_json() for c in cards("Td 6c")]
    assert [s["has_revealed"] for s in GAME.view(state, 2)["seats"]] == [True] + [False] * 3

    state, events = reveal_rest(state)

    assert events[-1] == CardsRevealed(1, tuple(cards(text) for text in EXAMPLE_REVEALS))
    assert state.phase == "scoring" and GAME.to_act(state) == ()
    assert GAME.automatic(state) == "scoring"


def test_p2_the_future_river_moves_in_and_a_new_one_is_turned_each_round_but_the_last():
    deck = fixed_deck(["As", "Ks"], future_river="2c 3c 4c", deck="5c 6c 7c 8c 9c Tc")
    state, _ = deal(2, deck)
    state, _ = commit_all(state, [first_cards(state, 0, 1), first_cards(state, 1, 1)])
    state, _ = reveal_all(state, [first_cards(state, 0, 2), first_cards(state, 1, 2)])
    state, _ = score(state)
    state, events = pick_in_order(state, [name_of(c) for c in on_the_table(state)[:4]])

    assert isinstance(events[-2], RoundEnded) and len(events[-2].discarded) == 5
    assert events[-1] == RoundStarted(2, cards("5c 6c 7c"), cards("8c 9c Tc"))
    assert [len(hand) for hand in state.hands] == [9, 9]

    last = replace(
        scoring_state(7, "2c 3c 4c 5d 9h", ["As Ah", "Ks Kh"]), future_river=cards("6s 7s 8s")
    )
    last, _ = score(last)
    _, events = pick_in_order(last, ["2c", "3c", "4c", "5d"])
    assert events[-1] == RoundStarted(8, cards("6s 7s 8s"), ())  # nothing turned in round 8


# P3 -----------------------------------------------------------------------------------------


def test_p3_the_rulebooks_example_round_ranks_straight_flush_flush_straight_lower_straight():
    state = example_round()
    _, events = score(state)

    (scored,) = events
    assert [(hand.seat, hand.place) for hand in scored.ranking] == [(1, 1), (2, 2), (0, 3), (3, 4)]
    assert [hand.name for hand in scored.ranking] == [
        "nine-high straight flush",
        "king-high flush",
        "ten-high straight",
        "nine-high straight",
    ]
    assert scored.points == (0, 1, 0, 0)  # round 1: one point to the winner


# P4 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_number", "tied", "each"), [(1, 1, 1), (3, 2, 2), (5, 3, 2), (8, 3, 3), (7, 5, 2)]
)
def test_p4_tied_winners_share_the_round_number_rounded_up(round_number, tied, each):
    assert round_points(round_number, tied) == each


def test_p4_round_three_split_two_ways_gives_two_points_each_and_nothing_to_the_others():
    # Seats 0 and 2 make the same king-high straight; seat 1 three twos, seat 3 a pair.
    revealed = ["Qc Kd", "2s 2d", "Qd Kc", "3s 4c"]
    state = scoring_state(3, "9s Tc Jd 2h 3h", revealed, (4, 0, 1, 0))
    state, events = score(state)
    assert events[0].points == (2, 0, 2, 0)
    assert [(h.seat, h.place) for h in events[0].ranking] == [(0, 1), (2, 1), (1, 3), (3, 4)]
    assert state.points == (6, 0, 3, 0)


# P5 -----------------------------------------------------------------------------------------


def test_p5_the_pickup_goes_from_the_worst_hand_to_the_best_twice():
    state, events = score(example_round())
    assert events[0].pickup_order == (3, 0, 2, 1) * 2
    assert GAME.to_act(state) == (3,)
    with pytest.raises(IllegalAction, match="not your turn"):
        step(state, PickUp(1, card("9h")))
    state, events = step(state, PickUp(3, card("Kh")))  # a revealed card of another seat
    assert events == [CardPickedUp(3, card("Kh"))] and card("Kh") in state.hands[3]
    with pytest.raises(IllegalAction, match="not on the table"):
        step(state, PickUp(0, card("Kh")))


def test_p5_equal_hands_more_points_pick_later_then_lower_seat_first():
    # The river is a royal flush: everyone ties; seats 0 and 2 have 5 points, seat 1 has 2.
    state = scoring_state(2, "As Ks Qs Js Ts", ["2c 3d", "4c 5d", "6c 7d"], (5, 2, 5))
    state, events = score(state)
    assert events[0].points == (1, 1, 1)
    assert events[0].pickup_order == (1, 0, 2, 1, 0, 2)
    picks = ["2c", "3d", "4c", "5d", "6c", "7d"]
    state, events = pick_in_order(state, picks)
    assert [(e.seat, name_of(e.card)) for e in events if isinstance(e, CardPickedUp)] == list(
        zip((1, 0, 2, 1, 0, 2), picks, strict=True)
    )
    assert events[-2] == RoundEnded(2, cards("As Ks Qs Js Ts"))  # the 5 left are discarded


# P6 -----------------------------------------------------------------------------------------


def test_p6_after_round_eight_the_most_points_win_with_no_pickup():
    state = scoring_state(8, "2c 7d 9h Js 4s", ["Ac Ad", "Ah Kh", "3c 5d"], (10, 14, 6))
    state, events = score(state)
    assert events[0].pickup_order == () and events[0].points == (8, 0, 0)
    assert events[-1] == GameEnded(
        winners=(0,),
        losers=(1, 2),
        final={"0": {"points": 18}, "1": {"points": 14}, "2": {"points": 6}},
    )
    assert GAME.is_terminal(state) and GAME.to_act(state) == ()
    assert GAME.view(state, None)["result"]["winners"] == [0]


def test_p6_players_tied_on_points_share_the_victory():
    state = scoring_state(8, "2c 7d 9h Js 4s", ["Ac Kd", "Ah Kh", "3c 5d"], (10, 14, 6))
    state, events = score(state)
    # Seats 0 and 1 both play A-K-J-9-7: 4 points each, 14 and 18.
    assert events[0].points == (4, 4, 0)
    assert events[-1] == GameEnded(
        winners=(1,),
        losers=(0, 2),
        final={"0": {"points": 14}, "1": {"points": 18}, "2": {"points": 6}},
    )
    tied = scoring_state(8, "2c 7d 9h Js 4s", ["Ac Kd", "Ah Kh", "3c 5d"], (14, 14, 6))
    _, events = score(tied)
    assert events[-1].winners == (0, 1) and events[-1].losers == (2,)
    assert isinstance(events[0], RoundScored)


def test_scoring_is_refused_while_seats_still_have_to_act():
    state = dealt(2)
    with pytest.raises(IllegalAction):
        GAME.decide(state, Automatic("scoring"))
    assert GAME.automatic(state) is None
