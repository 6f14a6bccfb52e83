"""decide refuses what the rules forbid, with messages that never show a hidden card."""

from __future__ import annotations

from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import CommitRiverCard, PickUp, RevealCards
from domain.games.saint_poker.state import DECK
from domain.kit.decider import Automatic, Deal, GameFinished, GameNotStarted, IllegalAction
from tests.domain.sp_support import SCORE, deal, given, round_to_score


def test_nothing_but_a_deal_is_accepted_before_the_deal():
    not_dealt = given(players=3)
    assert GAME.to_act(not_dealt.state) == ()
    assert GAME.view(not_dealt.state, 0)["phase"] == "dealing"
    assert GAME.cards_to_deal(not_dealt.state) == DECK
    not_dealt.when(CommitRiverCard(0, DECK[0])).then_refused(GameNotStarted)


def test_a_deal_must_be_exactly_the_52_cards_and_happens_once():
    not_dealt = given(players=2)
    not_dealt.when(Deal(DECK[:-1], "s", 0)).then_refused(IllegalAction, "52")
    not_dealt.when(Deal(DECK[:-1] + DECK[:1], "s", 0)).then_refused(IllegalAction, "52")
    dealt = not_dealt.when(Deal(DECK, "s", 0))
    assert GAME.cards_to_deal(dealt.state) is None
    dealt.when(Deal(DECK, "s", 0)).then_refused(IllegalAction, "already")


def test_a_seat_commits_only_a_card_it_holds_and_only_while_committing():
    dealt = given(deal(3, seed=2))
    hands, river = dealt.state.hands, dealt.state.river
    dealt.when(CommitRiverCard(0, hands[1][0])).then_refused(IllegalAction, "you do not hold")
    dealt.when(CommitRiverCard(7, hands[0][0])).then_refused()
    dealt.when(RevealCards(0, hands[0][:2])).then_refused(IllegalAction, "river is complete")
    dealt.when(PickUp(0, river[0])).then_refused(IllegalAction, "after a round is scored")


def test_a_reveal_is_two_different_cards_held_by_the_seat():
    dealt = given(deal(2, seed=3))
    hands = dealt.state.hands
    revealing = dealt.when_all(CommitRiverCard(0, hands[0][0]), CommitRiverCard(1, hands[1][0]))
    hand = revealing.state.hands[0]
    revealing.when(RevealCards(0, hand[:3])).then_refused(IllegalAction, "exactly 2")
    twice = RevealCards(0, (hand[0], hand[0]))
    revealing.when(twice).then_refused(IllegalAction, "more than once")
    revealing.when(RevealCards(0, (hand[0], hands[1][1]))).then_refused(IllegalAction, "hold")
    revealing.when(CommitRiverCard(0, hand[0])).then_refused(IllegalAction, "start of a round")
    chosen = revealing.when(RevealCards(0, hand[:2]))
    again = chosen.when(RevealCards(0, chosen.state.hands[0][:2]))
    again.then_refused(IllegalAction, "cannot be changed")


def test_scoring_happens_only_in_the_scoring_phase_and_ends_the_game_after_round_8():
    dealt = given(deal(2, seed=4))
    dealt.when(SCORE).then_refused(IllegalAction, "no round to score")
    dealt.when(Automatic("something else")).then_refused(IllegalAction)
    final = given(round_to_score(8, "2c 7d 9h Js 4s", ["Ac Ad", "Ah Kh"])).when(SCORE)
    final.when(SCORE).then_refused(GameFinished)
    assert GAME.legal_actions(final.state, 0) == [] and GAME.automatic(final.state) is None


def test_legal_actions_follow_the_phase():
    dealt = given(deal(2, seed=5))
    (template,) = GAME.legal_actions(dealt.state, 0)
    assert template["type"] == "commit_river_card" and len(template["cards"]) == 10
    one_committed = dealt.when(CommitRiverCard(0, dealt.state.hands[0][0]))
    state = one_committed.state
    assert GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 5) == []
    revealing = one_committed.when(CommitRiverCard(1, state.hands[1][0]))
    (template,) = GAME.legal_actions(revealing.state, 1)
    assert template["type"] == "reveal_cards" and template["count"] == 2
    assert len(template["cards"]) == 9
