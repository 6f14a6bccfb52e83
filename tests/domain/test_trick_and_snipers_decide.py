"""decide refuses what the rules forbid, with messages that never show a hidden card."""

from __future__ import annotations

from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import PassCards
from domain.games.trick_and_snipers.state import deck_for
from domain.kit.cards import Card
from domain.kit.decider import Command, Deal, GameFinished, GameNotStarted, IllegalAction
from domain.shared.tricks import PlayCard
from tests.domain.tns_support import card, cards, deal, given, play, played, playing


def test_nothing_but_a_deal_is_accepted_before_the_deal():
    not_dealt = given(players=3)
    assert (
        GAME.to_act(not_dealt.state) == () and GAME.view(not_dealt.state, 0)["phase"] == "dealing"
    )
    not_dealt.when(PassCards(0, cards("r1 r2 r3 r4"))).then_refused(GameNotStarted)
    not_dealt.when(play(0, "r1")).then_refused(GameNotStarted)


def test_a_deal_must_be_exactly_this_games_deck():
    not_dealt = given(players=3)
    deck = deck_for(3)
    for bad in (deck[:-1], deck[:-1] + deck[:1], deck_for(4)[:40], (*deck[:-1], "red 12")):
        not_dealt.when(Deal(bad, "s", 0)).then_refused(IllegalAction, "shuffle")
    not_dealt.when(Deal(deck, "s", 3)).then_refused()  # no seat 3 when no option names the leader


def test_a_second_deal_is_refused():
    given(deal(4)).when(Deal(deck_for(4), "s", 0)).then_refused(IllegalAction, "already")


def test_a_pass_must_name_four_distinct_cards_of_the_own_hand():
    dealt = given(deal(4, seed=5))
    own, other = dealt.state.hands[1], dealt.state.hands[2][0]
    dealt.when(PassCards(1, own[:3])).then_refused(IllegalAction, "exactly 4")
    dealt.when(PassCards(1, own[:5])).then_refused(IllegalAction, "exactly 4")
    twice = (own[0], own[0], own[1], own[2])
    dealt.when(PassCards(1, twice)).then_refused(IllegalAction, "more than once")
    message = dealt.when(PassCards(1, (*own[:3], other))).then_refused()
    assert message == f"you do not hold {other}"  # names only the card the caller named
    dealt.when(PassCards(7, own[:4])).then_refused()


def test_no_card_is_played_while_passing_and_no_pass_after_it():
    dealt = given(deal(3, seed=6))
    dealt.when(PlayCard(0, dealt.state.hands[0][0])).then_refused(IllegalAction, "passed")
    in_play = given(playing(["r1 r2 r3 r4 r5", "y1 y2 y3 y4 y5", "g1 g2 g3 g4 g5"]))
    refused = in_play.when(PassCards(0, cards("r1 r2 r3 r4")))
    refused.then_refused(IllegalAction, "before the first trick")


def test_playing_out_of_turn_or_a_card_not_held_is_refused_without_revealing_hands():
    seat_0_to_lead = given(playing(["r1 r2", "y1 y2", "g1 g2"], leader=0))
    message = seat_0_to_lead.when(play(1, "y1")).then_refused(IllegalAction, "not your turn")
    assert "y1" not in message and "yellow" not in message
    message = seat_0_to_lead.when(play(0, "y1")).then_refused()
    assert message == "you do not hold yellow 1"
    seat_0_to_lead.when(PlayCard(0, "red 1")).then_refused()  # not a card at all
    seat_0_to_lead.when(play(-1, "r1")).then_refused()


def test_a_command_of_another_game_is_refused():
    class Shout(Command):
        pass

    given(playing(["r1", "r2", "r3"])).when(Shout()).then_refused(IllegalAction, "Shout")


def test_a_finished_game_refuses_everything():
    over = given(playing(["r1", "r2", "r3"]), played(0, "r1"), played(1, "r2"))
    finished = over.when(play(2, "r3"))
    assert GAME.is_terminal(finished.state)
    finished.when(play(0, "r1")).then_refused(GameFinished)
    finished.when(Deal(deck_for(3), "s", 0)).then_refused(GameFinished)
    assert all(GAME.legal_actions(finished.state, seat) == [] for seat in range(3))


def test_a_spectator_sees_no_you_and_no_hand():
    state = given(deal(5, seed=7)).state
    spectator = GAME.view(state, None)
    assert "you" not in spectator
    assert [s["hand_count"] for s in spectator["seats"]] == [9] * 5
    mine = GAME.view(state, 2)["you"]
    assert mine["seat"] == 2 and len(mine["hand"]) == 9
    assert mine["legal_actions"][0]["type"] == "pass_cards"
    assert mine["passed_cards"] is None and mine["received_cards"] is None


def test_the_hand_in_a_view_is_sorted_by_suit_then_rank():
    state = given(playing(["b2 r9 r1 y4", "r2", "r3"])).state
    hand = [Card.from_json(c) for c in GAME.view(state, 0)["you"]["hand"]]
    assert hand == list(cards("r1 r9 y4 b2"))


def test_the_view_shows_the_trick_so_far_and_the_last_trick():
    first_trick = given(playing(["r7 b1", "r9 b2", "y3 y2"]), played(0, "r7"), played(1, "r9"))
    second_lead = first_trick.when(play(2, "y3")).when(play(1, "b2"))
    table = GAME.view(second_lead.state, 0)
    assert table["trick"] == [{"seat": 1, "card": card("b2").to_json()}]
    assert table["leader"] == 1 and table["trick_number"] == 2
    assert table["last_trick"]["winner"] == 1 and table["last_trick"]["point_to"] == 1
    assert table["last_trick"]["plays"][0] == {"seat": 0, "card": card("r7").to_json()}
