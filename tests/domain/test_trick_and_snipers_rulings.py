"""One test (or a few) per ruling: G3, G4 and T1-T6, written given / when / then."""

from __future__ import annotations

import pytest

from domain.decider import Deal, IllegalAction, InvalidSetup
from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import (
    CardPlayed,
    CardsPassed,
    CardsReceived,
    GameEnded,
    PassCards,
    TrickWon,
)
from domain.games.trick_and_snipers.state import deck_for
from tests.domain.support import visible_cards
from tests.domain.tns_support import card, cards, dealt, play_all, playing, step

# T1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deck", "hand", "left"), [(3, 40, 12, 4), (4, 48, 11, 4), (5, 48, 9, 3)]
)
def test_t1_the_deck_and_the_deal_depend_on_the_player_count(players, deck, hand, left):
    state = GAME.new_game(players, {"first_leader": None})
    to_deal = GAME.cards_to_deal(state)
    assert len(to_deal) == deck == len(set(to_deal))
    assert {c.suit for c in to_deal} == {"red", "yellow", "green", "blue"}
    assert (players == 3) == all(c.rank not in (5, 8) for c in to_deal)

    state = dealt(players)

    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.leftover) == left
    assert GAME.cards_to_deal(state) is None


def test_t1_left_over_cards_stay_hidden_until_the_game_ends():
    state = dealt(4, seed=3)
    for seat in (None, 0, 1, 2, 3):
        assert not visible_cards(GAME.view(state, seat)) & set(state.leftover)

    last_trick = playing(["r1", "r2", "r3", "r4"], leftover=cards("b1 b2"))
    finished = play_all(last_trick, ["r1", "r2", "r3", "r4"])[0]

    assert GAME.is_terminal(finished)
    assert visible_cards(GAME.view(finished, None)["leftover"]) == set(cards("b1 b2"))


def test_t1_deal_order_gives_seat_0_the_first_cards_and_keeps_the_rest_as_left_over():
    deck = deck_for(5)
    state = step(GAME.new_game(5, {"first_leader": None}), Deal(deck, "s", 0))[0]
    assert state.hands[0] == deck[:9] and state.hands[4] == deck[36:45]
    assert state.leftover == deck[45:]


# T2 and G3 ----------------------------------------------------------------------------------


def test_t2_every_seat_passes_four_cards_to_the_seat_on_its_left():
    state = dealt(3, seed=1)
    chosen = {seat: state.hands[seat][:4] for seat in range(3)}
    events = []
    for seat in range(3):
        state, new = step(state, PassCards(seat, chosen[seat]))
        events += new

    received = [e for e in events if isinstance(e, CardsReceived)]
    assert received == [CardsReceived(s, (s - 1) % 3, chosen[(s - 1) % 3]) for s in range(3)]
    for seat in range(3):
        assert set(chosen[(seat - 1) % 3]) <= set(state.hands[seat])
        assert not set(chosen[seat]) & set(state.hands[seat])
        assert len(state.hands[seat]) == 12
    assert state.phase == "playing"


def test_g3_a_pass_is_private_until_every_seat_has_chosen_and_cannot_be_changed():
    state = dealt(4, seed=2)
    hand_1 = state.hands[1]
    state, events = step(state, PassCards(0, state.hands[0][:4]))

    assert events == [CardsPassed(0, state.passed[0])]
    assert events[0].visible_to() == (0,) and events[0].redacted() == {"seat": 0, "count": 4}
    assert GAME.to_act(state) == (1, 2, 3)
    others = GAME.view(state, 1)
    assert others["seats"][0]["has_passed"] is True
    assert not visible_cards(others) & set(state.passed[0])
    assert GAME.view(state, 0)["you"]["passed_cards"] == [c.to_json() for c in state.passed[0]]
    assert state.hands[1] == hand_1  # nothing moves before the last choice
    with pytest.raises(IllegalAction, match="cannot be changed"):
        step(state, PassCards(0, state.hands[0][:4]))
    assert GAME.legal_actions(state, 0) == []


def test_g3_received_cards_are_seen_by_giver_and_receiver_only():
    state = dealt(3, seed=4)
    for seat in range(2):
        state, _ = step(state, PassCards(seat, state.hands[seat][:4]))
    _, events = step(state, PassCards(2, state.hands[2][:4]))
    received = [e for e in events if isinstance(e, CardsReceived)]
    assert [e.visible_to() for e in received] == [(0, 2), (1, 0), (2, 1)]
    assert received[0].redacted() == {"seat": 0, "from_seat": 2, "count": 4}


# G4 -----------------------------------------------------------------------------------------


def test_g4_the_first_leader_option_is_honoured():
    state = dealt(4, first_leader=1, options={"first_leader": 3})
    assert state.leader == 3


def test_g4_without_the_option_the_deals_random_first_leader_leads():
    state = dealt(4, first_leader=2)
    assert state.leader == 2


def test_g4_a_first_leader_option_must_be_a_seat():
    for bad in (4, -1, "1", True, 1.0):
        with pytest.raises(InvalidSetup):
            GAME.check_options(4, {"first_leader": bad})
    GAME.check_options(4, {"first_leader": 0})


# T3 -----------------------------------------------------------------------------------------


def test_t3_players_must_follow_the_led_suit_if_they_can():
    state = playing(["r3 b4", "r5 b12", "y1 y2"])
    state, _ = play_all(state, ["r3"])
    with pytest.raises(IllegalAction, match="follow suit"):
        step(state, GAME.commands["play_card"](seat=1, card=card("b12")))
    assert GAME.legal_actions(state, 1) == [{"type": "play_card", "cards": [card("r5").to_json()]}]


def test_t3_the_highest_card_of_the_led_suit_wins_and_its_winner_leads_next():
    state = playing(["r3 b4", "r5 b1", "y12 y2"], leader=0)
    state, events = play_all(state, ["r3", "r5", "y12"])
    assert events[-1] == TrickWon(seat=1, cards=cards("r3 r5 y12"), point_to=None, face_up=False)
    assert state.leader == 1 and GAME.to_act(state) == (1,)


# T4 -----------------------------------------------------------------------------------------


def test_t4_an_off_suit_card_making_13_with_the_winning_card_is_a_snipe():
    state = playing(["r4 b1", "r9 b2", "y4 y2"])
    _, events = play_all(state, ["r4", "r9", "y4"])
    assert events[2] == CardPlayed(seat=2, card=card("y4"), snipe=True)


def test_t4_thirteen_with_a_card_that_is_not_winning_or_in_the_led_suit_is_no_snipe():
    state = playing(["r4 b1", "r10 b2", "y9 y2", "r3 b3"])
    _, events = play_all(state, ["r4", "r10", "y9", "r3"])  # y9 + r4 = 13, but r10 wins
    assert [e.snipe for e in events if isinstance(e, CardPlayed)] == [False] * 4
    assert events[-1].point_to is None


def test_t4_a_snipe_counts_against_the_card_winning_at_the_moment_it_is_played():
    state = playing(["r4 b1", "y9 y1", "r11 b2"])
    _, events = play_all(state, ["r4", "y9", "r11"])  # r11 wins later; y9 sniped r4
    assert events[1].snipe is True
    assert events[-1] == TrickWon(seat=2, cards=cards("r4 y9 r11"), point_to=1, face_up=True)


# T5 -----------------------------------------------------------------------------------------


def test_t5_a_trick_holding_a_7_gives_its_winner_one_point_face_up():
    state = playing(["r7 b1", "r9 b2", "y3 y2"])
    state, events = play_all(state, ["r7", "r9", "y3"])
    assert events[-1] == TrickWon(seat=1, cards=cards("r7 r9 y3"), point_to=1, face_up=True)
    assert state.victory_points == (0, 1, 0)
    assert GAME.view(state, None)["seats"][1]["face_up_tricks"] == [
        [c.to_json() for c in cards("r7 r9 y3")]
    ]


def test_t5_a_snipe_steals_the_point_of_the_7_and_the_last_sniper_gets_it():
    state = playing(["r6 b1", "y7 y1", "b7 b2", "g10 g1"])
    state, events = play_all(state, ["r6", "y7", "b7", "g10"])  # y7 and b7 snipe r6
    assert [e.snipe for e in events if isinstance(e, CardPlayed)] == [False, True, True, False]
    assert events[-1] == TrickWon(seat=0, cards=cards("r6 y7 b7 g10"), point_to=2, face_up=True)
    assert state.victory_points == (0, 0, 1, 0)  # one point, however many 7s and snipes


def test_t5_a_trick_without_snipe_or_7_scores_nothing_and_lies_face_down():
    state = playing(["r6 b1", "r8 y1", "g2 b2"])
    state, events = play_all(state, ["r6", "r8", "g2"])
    assert events[-1] == TrickWon(seat=1, cards=cards("r6 r8 g2"), point_to=None, face_up=False)
    assert state.tricks_won == (0, 1, 0)
    public = GAME.view(state, None)["seats"][1]
    assert public["tricks_won"] == 1 and public["face_up_tricks"] == []


# T6 -----------------------------------------------------------------------------------------


def test_t6_the_game_ends_at_the_end_of_the_trick_where_a_player_reaches_2_points():
    state = playing(["r7 b1 b3", "r9 b2 b4", "y3 y2 y4"], victory_points=(0, 1, 0))
    state, events = play_all(state, ["r7", "r9", "y3"])
    assert events[-1] == GameEnded(
        winners=(1,),
        losers=(0, 2),
        final={
            "0": {"victory_points": 0, "tricks_won": 0},
            "1": {"victory_points": 2, "tricks_won": 1},
            "2": {"victory_points": 0, "tricks_won": 0},
        },
    )
    assert GAME.is_terminal(state) and GAME.to_act(state) == ()
    assert GAME.view(state, 0)["result"]["winners"] == [1]


def test_t6_when_hands_run_out_most_points_then_most_tricks_wins():
    state = playing(["r1", "r2", "r3"], victory_points=(1, 1, 0), tricks_won=(3, 2, 6))
    _, events = play_all(state, ["r1", "r2", "r3"])  # seat 2 takes a trick, still 0 points
    assert events[-1].winners == (0,) and events[-1].losers == (1, 2)


def test_t6_players_still_tied_share_the_victory():
    state = playing(["r1", "r3", "r2"], victory_points=(1, 1, 0), tricks_won=(3, 2, 6))
    _, events = play_all(state, ["r1", "r3", "r2"])  # seat 1 takes the last trick: 3 tricks
    assert events[-1].winners == (0, 1) and events[-1].losers == (2,)
