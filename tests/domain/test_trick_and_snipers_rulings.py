"""One test (or a few) per ruling: G3, G4 and T1-T6, written given / when / then."""

from __future__ import annotations

import pytest

from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import (
    CardsPassed,
    CardsReceived,
    GameEnded,
    PassCards,
)
from domain.games.trick_and_snipers.state import deck_for
from domain.kit.decider import Deal, IllegalAction, InvalidSetup
from domain.kit.templates import with_send
from tests.domain.support import visible_cards
from tests.domain.tns_support import (
    card,
    cards,
    deal,
    given,
    play,
    played,
    playing,
    trick,
    won,
)

# T1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deck", "hand", "left"), [(3, 40, 12, 4), (4, 48, 11, 4), (5, 48, 9, 3)]
)
def test_t1_the_deck_and_the_deal_depend_on_the_player_count(players, deck, hand, left):
    to_deal = GAME.cards_to_deal(GAME.new_game(players, {"first_leader": None}))
    assert len(to_deal) == deck == len(set(to_deal))
    assert {c.suit for c in to_deal} == {"red", "yellow", "green", "blue"}
    assert (players == 3) == all(c.rank not in (5, 8) for c in to_deal)

    state = given(players=players).when(Deal(to_deal, "salt", 0)).state

    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.leftover) == left
    assert GAME.cards_to_deal(state) is None


def test_t1_left_over_cards_stay_hidden_until_the_game_ends():
    state = given(deal(4, seed=3)).state
    for seat in (None, 0, 1, 2, 3):
        assert not visible_cards(GAME.view(state, seat)) & set(state.leftover)

    last_card = given(
        playing(["r1", "r2", "r3", "r4"], leftover="b1 b2"),
        [played(0, "r1"), played(1, "r2"), played(2, "r3")],
    )
    for seat in (None, 0, 1, 2, 3):
        assert not visible_cards(GAME.view(last_card.state, seat)) & set(cards("b1 b2"))
    finished = last_card.when(play(3, "r4")).state

    assert GAME.is_terminal(finished)
    assert visible_cards(GAME.view(finished, None)["leftover"]) == set(cards("b1 b2"))


def test_t1_deal_order_gives_seat_0_the_first_cards_and_keeps_the_rest_as_left_over():
    deck = deck_for(5)
    state = given(players=5).when(Deal(deck, "s", 0)).state
    assert state.hands[0] == deck[:9] and state.hands[4] == deck[36:45]
    assert state.leftover == deck[45:]


# T2 and G3 ----------------------------------------------------------------------------------


def test_t2_every_seat_passes_four_cards_to_the_seat_on_its_left():
    dealt = given(deal(3, seed=1))
    chosen = {seat: dealt.state.hands[seat][:4] for seat in range(3)}
    two_passed = dealt.when(PassCards(0, chosen[0])).when(PassCards(1, chosen[1]))

    last = two_passed.when(PassCards(2, chosen[2]))

    last.then(
        CardsPassed(2, chosen[2]),
        *(CardsReceived(s, (s - 1) % 3, chosen[(s - 1) % 3]) for s in range(3)),
    )
    for seat, hand in enumerate(last.state.hands):
        assert set(chosen[(seat - 1) % 3]) <= set(hand) and not set(chosen[seat]) & set(hand)
        assert len(hand) == 12
    assert last.state.phase == "playing"


def test_g3_a_pass_is_private_until_every_seat_has_chosen_and_cannot_be_changed():
    dealt = given(deal(4, seed=2))
    chosen = dealt.state.hands[0][:4]

    first = dealt.when(PassCards(0, chosen)).then(CardsPassed(0, chosen))

    assert first.events[0].visible_to() == (0,)
    assert first.events[0].redacted() == {"seat": 0, "count": 4}
    state = first.state
    assert GAME.to_act(state) == (1, 2, 3)
    others = GAME.view(state, 1)
    assert others["seats"][0]["has_passed"] is True
    assert not visible_cards(others) & set(chosen)
    assert GAME.view(state, 0)["you"]["passed_cards"] == [c.to_json() for c in chosen]
    assert state.hands[1] == dealt.state.hands[1]  # nothing moves before the last choice
    first.when(PassCards(0, state.hands[0][:4])).then_refused(IllegalAction, "cannot be changed")
    assert GAME.legal_actions(state, 0) == []


def test_g3_received_cards_are_seen_by_giver_and_receiver_only():
    dealt = given(deal(3, seed=4))
    hands = dealt.state.hands
    received = (
        dealt.when(PassCards(0, hands[0][:4]))
        .when(PassCards(1, hands[1][:4]))
        .when(PassCards(2, hands[2][:4]))
        .events[1:]
    )
    assert [e.visible_to() for e in received] == [(0, 2), (1, 0), (2, 1)]
    assert received[0].redacted() == {"seat": 0, "from_seat": 2, "count": 4}


# G4 -----------------------------------------------------------------------------------------


def test_g4_the_first_leader_option_is_honoured():
    table = given(players=4, options={"first_leader": 3})
    assert table.when(Deal(deck_for(4), "s", 1)).state.leader == 3


def test_g4_without_the_option_the_deals_random_first_leader_leads():
    assert given(players=4).when(Deal(deck_for(4), "s", 2)).state.leader == 2


def test_g4_a_first_leader_option_must_be_a_seat():
    for bad in (4, -1, "1", True, 1.0):
        with pytest.raises(InvalidSetup):
            GAME.check_options(4, {"first_leader": bad})
    GAME.check_options(4, {"first_leader": 0})


# T3 -----------------------------------------------------------------------------------------


def test_t3_players_must_follow_the_led_suit_if_they_can():
    red_led = given(playing(["r3 b4", "r5 b12", "y1 y2"]), played(0, "r3"))
    red_led.when(play(1, "b12")).then_refused(IllegalAction, "follow suit")
    assert GAME.legal_actions(red_led.state, 1) == with_send(
        [{"type": "play_card", "cards": [card("r5").to_json()]}]
    )


def test_t3_the_highest_card_of_the_led_suit_wins_and_its_winner_leads_next():
    last_card = given(playing(["r3 b4", "r5 b1", "y12 y2"]), played(0, "r3"), played(1, "r5"))
    trick_won = last_card.when(play(2, "y12")).then(played(2, "y12"), won(1, "r3 r5 y12"))
    assert trick_won.state.leader == 1 and GAME.to_act(trick_won.state) == (1,)


# T4 -----------------------------------------------------------------------------------------


def test_t4_an_off_suit_card_making_13_with_the_winning_card_is_a_snipe():
    last_card = given(playing(["r4 b1", "r9 b2", "y4 y2"]), played(0, "r4"), played(1, "r9"))
    last_card.when(play(2, "y4")).then(played(2, "y4", snipe=True), won(1, "r4 r9 y4", point_to=2))


def test_t4_thirteen_with_a_card_that_is_not_winning_or_in_the_led_suit_is_no_snipe():
    r10_winning = given(
        playing(["r4 b1", "r10 b2", "y9 y2", "r3 b3"]), played(0, "r4"), played(1, "r10")
    )
    y9 = r10_winning.when(play(2, "y9")).then(played(2, "y9"))  # y9 + r4 = 13, but r10 wins
    y9.when(play(3, "r3")).then(played(3, "r3"), won(1, "r4 r10 y9 r3"))  # r3 follows suit


def test_t4_a_snipe_counts_against_the_card_winning_at_the_moment_it_is_played():
    r4_led = given(playing(["r4 b1", "y9 y1", "r11 b2"]), played(0, "r4"))
    sniped = r4_led.when(play(1, "y9")).then(played(1, "y9", snipe=True))
    sniped.when(play(2, "r11")).then(played(2, "r11"), won(2, "r4 y9 r11", point_to=1))


# T5 -----------------------------------------------------------------------------------------


def test_t5_a_trick_holding_a_7_gives_its_winner_one_point_face_up():
    last_card = given(playing(["r7 b1", "r9 b2", "y3 y2"]), played(0, "r7"), played(1, "r9"))
    scored = last_card.when(play(2, "y3")).then(played(2, "y3"), won(1, "r7 r9 y3", point_to=1))
    assert scored.state.victory_points == (0, 1, 0)
    assert GAME.view(scored.state, None)["seats"][1]["face_up_tricks"] == [
        [c.to_json() for c in cards("r7 r9 y3")]
    ]


def test_t5_a_snipe_steals_the_point_of_the_7_and_the_last_sniper_gets_it():
    r6_led = given(playing(["r6 b1", "y7 y1", "b7 b2", "g10 g1"]), played(0, "r6"))
    two_snipes = (
        r6_led.when(play(1, "y7"))
        .then(played(1, "y7", snipe=True))
        .when(play(2, "b7"))
        .then(played(2, "b7", snipe=True))
    )
    scored = two_snipes.when(play(3, "g10")).then(
        played(3, "g10"), won(0, "r6 y7 b7 g10", point_to=2)
    )
    assert scored.state.victory_points == (0, 0, 1, 0)  # one point, however many 7s and snipes


def test_t5_a_trick_without_snipe_or_7_scores_nothing_and_lies_face_down():
    last_card = given(playing(["r6 b1", "r8 y1", "g2 b2"]), played(0, "r6"), played(1, "r8"))
    trick_won = last_card.when(play(2, "g2")).then(played(2, "g2"), won(1, "r6 r8 g2"))
    assert trick_won.state.tricks_won == (0, 1, 0)
    public = GAME.view(trick_won.state, None)["seats"][1]
    assert public["tricks_won"] == 1 and public["face_up_tricks"] == []


# T6 -----------------------------------------------------------------------------------------


def test_t6_the_game_ends_at_the_end_of_the_trick_where_a_player_reaches_2_points():
    seat_1_at_one_point = given(
        playing(["g7 r7 b1 b3", "g9 r9 b2 b4", "g1 y3 y2 y4"]),
        trick("g7 g9 g1", leader=0, winner=1, point_to=1),
        [played(1, "r9"), played(2, "y3")],
    )
    ended = seat_1_at_one_point.when(play(0, "r7")).then(
        played(0, "r7"),
        won(1, "r9 y3 r7", point_to=1),
        GameEnded(
            winners=(1,),
            losers=(0, 2),
            final={
                "0": {"victory_points": 0, "tricks_won": 0},
                "1": {"victory_points": 2, "tricks_won": 2},
                "2": {"victory_points": 0, "tricks_won": 0},
            },
        ),
    )
    assert GAME.is_terminal(ended.state) and GAME.to_act(ended.state) == ()
    assert GAME.view(ended.state, 0)["result"]["winners"] == [1]


def test_t6_when_hands_run_out_most_points_then_most_tricks_wins():
    last_card = given(
        playing(["g7 y9 b1 r1", "g1 y1 b7 r2", "g2 y2 b2 r3"]),
        trick("g7 g1 g2", leader=0, winner=0, point_to=0),
        trick("y9 y1 y2", leader=0, winner=0),
        trick("b1 b7 b2", leader=0, winner=1, point_to=1),
        [played(1, "r2"), played(2, "r3")],
    )
    ended = last_card.when(play(0, "r1")).events[-1]  # seat 2 takes it, still 0 points
    assert ended.winners == (0,) and ended.losers == (1, 2)  # 1 point each, seat 0: 2 tricks


def test_t6_players_still_tied_share_the_victory():
    last_card = given(
        playing(["g7 b1 y1 r1", "g1 b7 y2 r2", "g2 b2 y9 r3"]),
        trick("g7 g1 g2", leader=0, winner=0, point_to=0),
        trick("b1 b7 b2", leader=0, winner=1, point_to=1),
        trick("y2 y9 y1", leader=1, winner=2),
        [played(2, "r3"), played(0, "r1")],
    )
    ended = last_card.when(play(1, "r2")).events[-1]  # seats 0 and 1: 1 point, 1 trick each
    assert ended.winners == (0, 1) and ended.losers == (2,)
