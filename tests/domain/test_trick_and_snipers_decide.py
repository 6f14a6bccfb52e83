"""decide refuses what the rules forbid, with messages that never show a hidden card."""

from __future__ import annotations

import pytest

from domain.cards import Card
from domain.decider import Command, Deal, GameFinished, GameNotStarted, IllegalAction
from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import PassCards, PlayCard
from domain.games.trick_and_snipers.state import deck_for
from tests.domain.tns_support import card, cards, dealt, play_all, playing


def refused(state, command, error=IllegalAction) -> str:
    with pytest.raises(error) as caught:
        GAME.decide(state, command)
    return caught.value.message


def test_nothing_but_a_deal_is_accepted_before_the_deal():
    state = GAME.new_game(3, {"first_leader": None})
    assert GAME.to_act(state) == () and GAME.view(state, 0)["phase"] == "dealing"
    refused(state, PassCards(0, cards("r1 r2 r3 r4")), GameNotStarted)
    refused(state, PlayCard(0, card("r1")), GameNotStarted)


def test_a_deal_must_be_exactly_this_games_deck():
    state = GAME.new_game(3, {"first_leader": None})
    deck = deck_for(3)
    for bad in (deck[:-1], deck[:-1] + deck[:1], deck_for(4)[:40], (*deck[:-1], "red 12")):
        assert "shuffle" in refused(state, Deal(bad, "s", 0))
    refused(state, Deal(deck, "s", 3))  # no seat 3 when no option names the leader


def test_a_second_deal_is_refused():
    assert "already" in refused(dealt(4), Deal(deck_for(4), "s", 0))


def test_a_pass_must_name_four_distinct_cards_of_the_own_hand():
    state = dealt(4, seed=5)
    own = state.hands[1]
    other = state.hands[2][0]
    assert "exactly 4" in refused(state, PassCards(1, own[:3]))
    assert "exactly 4" in refused(state, PassCards(1, own[:5]))
    assert "more than once" in refused(state, PassCards(1, (own[0], own[0], own[1], own[2])))
    message = refused(state, PassCards(1, (*own[:3], other)))
    assert message == f"you do not hold {other}"  # names only the card the caller named
    refused(state, PassCards(7, own[:4]))


def test_no_card_is_played_while_passing_and_no_pass_after_it():
    state = dealt(3, seed=6)
    assert "passed" in refused(state, PlayCard(0, state.hands[0][0]))
    in_play = playing(["r1 r2 r3 r4 r5", "y1 y2 y3 y4 y5", "g1 g2 g3 g4 g5"])
    assert "before the first trick" in refused(in_play, PassCards(0, cards("r1 r2 r3 r4")))


def test_playing_out_of_turn_or_a_card_not_held_is_refused_without_revealing_hands():
    state = playing(["r1 r2", "y1 y2", "g1 g2"], leader=0)
    message = refused(state, PlayCard(1, card("y1")))
    assert "not your turn" in message and "y1" not in message and "yellow" not in message
    assert refused(state, PlayCard(0, card("y1"))) == "you do not hold yellow 1"
    refused(state, PlayCard(0, "red 1"))  # not a card at all
    refused(state, PlayCard(-1, card("r1")))


def test_a_command_of_another_game_is_refused():
    class Shout(Command):
        pass

    refused(playing(["r1", "r2", "r3"]), Shout())


def test_a_finished_game_refuses_everything():
    finished, _ = play_all(playing(["r1", "r2", "r3"]), ["r1", "r2", "r3"])
    assert GAME.is_terminal(finished)
    refused(finished, PlayCard(0, card("r1")), GameFinished)
    refused(finished, Deal(deck_for(3), "s", 0), GameFinished)
    assert all(GAME.legal_actions(finished, seat) == [] for seat in range(3))


def test_a_spectator_sees_no_you_and_no_hand():
    state = dealt(5, seed=7)
    spectator = GAME.view(state, None)
    assert "you" not in spectator
    assert [s["hand_count"] for s in spectator["seats"]] == [9] * 5
    mine = GAME.view(state, 2)["you"]
    assert mine["seat"] == 2 and len(mine["hand"]) == 9
    assert mine["legal_actions"][0]["type"] == "pass_cards"
    assert mine["passed_cards"] is None and mine["received_cards"] is None


def test_the_hand_in_a_view_is_sorted_by_suit_then_rank():
    state = playing(["b2 r9 r1 y4", "r2", "r3"])
    hand = [Card.from_json(c) for c in GAME.view(state, 0)["you"]["hand"]]
    assert hand == list(cards("r1 r9 y4 b2"))


def test_the_view_shows_the_trick_so_far_and_the_last_trick():
    state, _ = play_all(playing(["r7 b1", "r9 b2", "y3 y2"]), ["r7", "r9", "y3", "b2"])
    table = GAME.view(state, 0)
    assert table["trick"] == [{"seat": 1, "card": card("b2").to_json()}]
    assert table["leader"] == 1 and table["trick_number"] == 2
    assert table["last_trick"]["winner"] == 1 and table["last_trick"]["point_to"] == 1
    assert table["last_trick"]["plays"][0] == {"seat": 0, "card": card("r7").to_json()}
