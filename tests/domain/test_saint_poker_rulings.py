"""One test (or a few) per ruling P1-P6 and G3, written given / when / then."""

from __future__ import annotations

import pytest

from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import (
    CardPickedUp,
    CardsRevealed,
    CommitRiverCard,
    GameEnded,
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
from domain.kit.decider import Deal, IllegalAction, InvalidSetup
from tests.domain.sp_support import (
    SCORE,
    card,
    cards,
    commit_all,
    deal,
    fixed_deck,
    given,
    name_of,
    pick,
    reveal_all,
    round_to_score,
)
from tests.domain.support import visible_cards

# The rulebook's example round, for 4 players (A-D are seats 0-3); the river is 9h (the first
# future river) and the committed 8h 7h 2c 3s.
EXAMPLE_DEAL = Deal(
    fixed_deck(["8h Td 6c", "7h 6h 5h", "2c Kh 4h", "3s 6d 5c"], future_river="9h", deck="Jc"),
    "salt",
    0,
)
EXAMPLE_COMMITS = commit_all(["8h", "7h", "2c", "3s"])
EXAMPLE_REVEALS = reveal_all(["Td 6c", "6h 5h", "Kh 4h", "6d 5c"])


def example_round(*commands):
    """The example round dealt, then these commands."""
    return given(players=4).when(EXAMPLE_DEAL).when_all(*commands)


# P1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "future", "deck"), [(2, 3, 29), (3, 2, 20), (4, 1, 11)])
def test_p1_ten_cards_each_and_a_future_river_that_shrinks_with_more_players(players, future, deck):
    to_deal = GAME.cards_to_deal(GAME.new_game(players, {}))
    assert len(to_deal) == len(set(to_deal)) == 52
    assert {c.suit for c in to_deal} == {"spades", "hearts", "diamonds", "clubs"}
    assert {c.rank for c in to_deal} == set(range(2, 15))

    state = given(deal(players)).state

    assert [len(hand) for hand in state.hands] == [10] * players
    # Round 1 has begun: the first future river moved in and the next one was turned.
    assert len(state.river) == len(state.future_river) == future
    assert len(state.deck) == deck - future


def test_p1_five_players_have_no_future_river_and_a_deck_of_two():
    state = given(deal(5)).state
    assert state.river == state.future_river == () and len(state.deck) == 2


def test_p1_saint_poker_is_for_two_to_five_players():
    for players in (1, 6):
        with pytest.raises(InvalidSetup):
            GAME.check_options(players, {})
    assert (GAME.min_players, GAME.max_players) == (2, 5)


def test_p1_a_fixed_deck_deals_seats_then_the_future_river_then_the_deck():
    deck = fixed_deck(["As", "Ks"], future_river="2c 3c 4c", deck="5c 6c 7c")
    dealt = given(players=2).when(Deal(deck, "salt", 0))
    assert dealt.state.hands[0] == deck[:10] and dealt.state.hands[1] == deck[10:20]
    assert dealt.events[-1] == RoundStarted(1, cards("2c 3c 4c"), cards("5c 6c 7c"))
    assert dealt.state.deck == deck[26:]


# P2 and G3 ----------------------------------------------------------------------------------


def test_p2_commits_stay_private_until_every_seat_has_committed_then_complete_the_river():
    dealt = given(deal(3, seed=1))
    start, hands = dealt.state.river, dealt.state.hands
    committed = (hands[0][0], hands[1][0], hands[2][0])

    first = dealt.when(CommitRiverCard(0, committed[0])).then(RiverCardCommitted(0, committed[0]))

    assert first.events[0].visible_to() == (0,) and first.events[0].redacted() == {"seat": 0}
    assert GAME.to_act(first.state) == (1, 2) and first.state.river == start
    other = GAME.view(first.state, 1)
    assert [s["has_committed"] for s in other["seats"]] == [True, False, False]
    assert committed[0] not in visible_cards(other)
    assert GAME.view(first.state, 0)["you"]["committed_card"] == committed[0].to_json()
    again = first.when(CommitRiverCard(0, first.state.hands[0][0]))
    again.then_refused(IllegalAction, "cannot be changed")

    last = first.when(CommitRiverCard(1, committed[1])).when(CommitRiverCard(2, committed[2]))

    last.then(RiverCardCommitted(2, committed[2]), RiverCompleted(1, committed))
    assert last.state.river == start + committed and len(last.state.river) == 5
    assert last.state.phase == "revealing" and GAME.to_act(last.state) == (0, 1, 2)


def test_p2_reveals_stay_private_until_every_seat_has_revealed():
    first = example_round(*EXAMPLE_COMMITS, EXAMPLE_REVEALS[0]).then_ends_with(
        RevealChosen(0, cards("Td 6c"))
    )

    assert first.events[-1].redacted() == {"seat": 0, "count": 2}
    for viewer in (None, 1, 2, 3):
        assert not visible_cards(GAME.view(first.state, viewer)) & set(cards("Td 6c"))
    assert GAME.view(first.state, 0)["you"]["chosen_cards"] == [c.to_json() for c in cards("Td 6c")]
    assert [s["has_revealed"] for s in GAME.view(first.state, 2)["seats"]] == [True] + [False] * 3

    rest = first.when_all(*EXAMPLE_REVEALS[1:])

    assert rest.events[-1] == CardsRevealed(1, tuple(reveal.cards for reveal in EXAMPLE_REVEALS))
    assert rest.state.phase == "scoring" and GAME.to_act(rest.state) == ()
    assert GAME.automatic(rest.state) == "scoring"


def test_p2_the_future_river_moves_in_and_a_new_one_is_turned_each_round_but_the_last():
    deck = fixed_deck(["As", "Ks"], future_river="2c 3c 4c", deck="5c 6c 7c 8c 9c Tc")
    dealt = given(players=2).when(Deal(deck, "salt", 0))
    hands = dealt.state.hands
    reveals = [RevealCards(seat, hands[seat][1:3]) for seat in (0, 1)]
    commits = [CommitRiverCard(seat, hands[seat][0]) for seat in (0, 1)]
    scored = dealt.when_all(*commits, *reveals, SCORE)
    order = scored.events[-1].pickup_order
    table = on_the_table(scored.state)

    picked = scored.when_all(
        *(pick(seat, name_of(c)) for seat, c in zip(order, table[:4], strict=True))
    )

    assert isinstance(picked.events[-2], RoundEnded) and len(picked.events[-2].discarded) == 5
    assert picked.events[-1] == RoundStarted(2, cards("5c 6c 7c"), cards("8c 9c Tc"))
    assert [len(hand) for hand in picked.state.hands] == [9, 9]

    round_7 = given(
        round_to_score(7, "2c 3c 4c 5d 9h", ["As Ah", "Ks Kh"], future_river="6s 7s 8s")
    )
    scored = round_7.when(SCORE)
    order = scored.events[0].pickup_order
    picked = scored.when_all(
        *(pick(s, t) for s, t in zip(order, ["2c", "3c", "4c", "5d"], strict=True))
    )
    assert picked.events[-1] == RoundStarted(8, cards("6s 7s 8s"), ())  # nothing turned in 8


# P3 -----------------------------------------------------------------------------------------


def test_p3_the_rulebooks_example_round_ranks_straight_flush_flush_straight_lower_straight():
    (scored,) = example_round(*EXAMPLE_COMMITS, *EXAMPLE_REVEALS).when(SCORE).events

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
    scored = given(round_to_score(3, "9s Tc Jd 2h 3h", revealed, (4, 0, 1, 0))).when(SCORE)
    assert scored.events[0].points == (2, 0, 2, 0)
    assert [(h.seat, h.place) for h in scored.events[0].ranking] == [
        (0, 1),
        (2, 1),
        (1, 3),
        (3, 4),
    ]
    assert scored.state.points == (6, 0, 3, 0)


# P5 -----------------------------------------------------------------------------------------


def test_p5_the_pickup_goes_from_the_worst_hand_to_the_best_twice():
    scored = example_round(*EXAMPLE_COMMITS, *EXAMPLE_REVEALS).when(SCORE)
    assert scored.events[0].pickup_order == (3, 0, 2, 1) * 2
    assert GAME.to_act(scored.state) == (3,)
    scored.when(pick(1, "9h")).then_refused(IllegalAction, "not your turn")
    picked = scored.when(pick(3, "Kh")).then(CardPickedUp(3, card("Kh")))  # another's reveal
    assert card("Kh") in picked.state.hands[3]
    picked.when(pick(0, "Kh")).then_refused(IllegalAction, "not on the table")


def test_p5_equal_hands_more_points_pick_later_then_lower_seat_first():
    # The river is a royal flush: everyone ties; seats 0 and 2 have 5 points, seat 1 has 2.
    scored = given(
        round_to_score(2, "As Ks Qs Js Ts", ["2c 3d", "4c 5d", "6c 7d"], (5, 2, 5))
    ).when(SCORE)
    assert scored.events[0].points == (1, 1, 1)
    order = (1, 0, 2, 1, 0, 2)
    assert scored.events[0].pickup_order == order
    picks = ["2c", "3d", "4c", "5d", "6c", "7d"]
    picked = scored.when_all(*(pick(seat, text) for seat, text in zip(order, picks, strict=True)))
    assert picked.events[:6] == [
        CardPickedUp(s, card(t)) for s, t in zip(order, picks, strict=True)
    ]
    assert picked.events[-2] == RoundEnded(2, cards("As Ks Qs Js Ts"))  # the 5 left go


# P6 -----------------------------------------------------------------------------------------


def test_p6_after_round_eight_the_most_points_win_with_no_pickup():
    last_round = given(
        round_to_score(8, "2c 7d 9h Js 4s", ["Ac Ad", "Ah Kh", "3c 5d"], (10, 14, 6))
    )
    ended = last_round.when(SCORE)
    assert ended.events[0].pickup_order == () and ended.events[0].points == (8, 0, 0)
    assert ended.events[-1] == GameEnded(
        winners=(0,),
        losers=(1, 2),
        final={"0": {"points": 18}, "1": {"points": 14}, "2": {"points": 6}},
    )
    assert GAME.is_terminal(ended.state) and GAME.to_act(ended.state) == ()
    assert GAME.view(ended.state, None)["result"]["winners"] == [0]


def test_p6_players_tied_on_points_share_the_victory():
    revealed = ["Ac Kd", "Ah Kh", "3c 5d"]
    ended = given(round_to_score(8, "2c 7d 9h Js 4s", revealed, (10, 14, 6))).when(SCORE)
    # Seats 0 and 1 both play A-K-J-9-7: 4 points each, 14 and 18.
    assert ended.events[0].points == (4, 4, 0)
    assert ended.events[-1] == GameEnded(
        winners=(1,),
        losers=(0, 2),
        final={"0": {"points": 14}, "1": {"points": 18}, "2": {"points": 6}},
    )
    tied = given(round_to_score(8, "2c 7d 9h Js 4s", revealed, (14, 14, 6))).when(SCORE)
    assert isinstance(tied.events[0], RoundScored)
    assert tied.events[-1].winners == (0, 1) and tied.events[-1].losers == (2,)


def test_scoring_is_refused_while_seats_still_have_to_act():
    dealt = given(deal(2))
    dealt.when(SCORE).then_refused(IllegalAction)
    assert GAME.automatic(dealt.state) is None
