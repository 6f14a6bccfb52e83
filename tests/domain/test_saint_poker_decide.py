"""decide refuses what the rules forbid, with messages that never show a hidden card."""

from __future__ import annotations

import pytest

from domain.decider import Automatic, Deal, GameFinished, GameNotStarted, IllegalAction
from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import CommitRiverCard, PickUp, RevealCards
from domain.games.saint_poker.state import DECK
from tests.domain.sp_support import dealt, scoring_state, step


def refused(state, command, error=IllegalAction) -> str:
    with pytest.raises(error) as caught:
        GAME.decide(state, command)
    return caught.value.message


def test_nothing_but_a_deal_is_accepted_before_the_deal():
    state = GAME.new_game(3, {})
    assert GAME.to_act(state) == () and GAME.view(state, 0)["phase"] == "dealing"
    assert GAME.cards_to_deal(state) == DECK
    refused(state, CommitRiverCard(0, DECK[0]), GameNotStarted)


def test_a_deal_must_be_exactly_the_52_cards_and_happens_once():
    state = GAME.new_game(2, {})
    refused(state, Deal(DECK[:-1], "s", 0))
    refused(state, Deal(DECK[:-1] + DECK[:1], "s", 0))
    dealt_state = step(state, Deal(DECK, "s", 0))[0]
    assert GAME.cards_to_deal(dealt_state) is None
    refused(dealt_state, Deal(DECK, "s", 0))


def test_a_seat_commits_only_a_card_it_holds_and_only_while_committing():
    state = dealt(3, seed=2)
    other = state.hands[1][0]
    message = refused(state, CommitRiverCard(0, other))
    assert "you do not hold" in message
    refused(state, CommitRiverCard(7, state.hands[0][0]))
    refused(state, RevealCards(0, state.hands[0][:2]))
    refused(state, PickUp(0, state.river[0]))


def test_a_reveal_is_two_different_cards_held_by_the_seat():
    state = dealt(2, seed=3)
    state, _ = step(state, CommitRiverCard(0, state.hands[0][0]))
    state, _ = step(state, CommitRiverCard(1, state.hands[1][0]))
    hand = state.hands[0]
    assert "exactly 2" in refused(state, RevealCards(0, hand[:3]))
    assert "more than once" in refused(state, RevealCards(0, (hand[0], hand[0])))
    refused(state, RevealCards(0, (hand[0], state.hands[1][0])))
    refused(state, CommitRiverCard(0, hand[0]))
    state, _ = step(state, RevealCards(0, hand[:2]))
    assert "cannot be changed" in refused(state, RevealCards(0, state.hands[0][:2]))


def test_scoring_happens_only_in_the_scoring_phase_and_ends_the_game_after_round_8():
    state = dealt(2, seed=4)
    refused(state, Automatic("scoring"))
    refused(state, Automatic("something else"))
    final, _ = step(scoring_state(8, "2c 7d 9h Js 4s", ["Ac Ad", "Ah Kh"]), Automatic("scoring"))
    refused(final, Automatic("scoring"), GameFinished)
    assert GAME.legal_actions(final, 0) == [] and GAME.automatic(final) is None


def test_legal_actions_follow_the_phase():
    state = dealt(2, seed=5)
    (template,) = GAME.legal_actions(state, 0)
    assert template["type"] == "commit_river_card" and len(template["cards"]) == 10
    state, _ = step(state, CommitRiverCard(0, state.hands[0][0]))
    assert GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 5) == []
    state, _ = step(state, CommitRiverCard(1, state.hands[1][0]))
    (template,) = GAME.legal_actions(state, 1)
    assert template["type"] == "reveal_cards" and template["count"] == 2
    assert len(template["cards"]) == 9
