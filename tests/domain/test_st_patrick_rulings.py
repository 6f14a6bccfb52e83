"""One test (or a few) per ruling S1-S10 of St Patrick, written given / when / then."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.cards import Card
from domain.decider import Automatic, Deal, IllegalAction, InvalidSetup
from domain.games.st_patrick import GAME
from domain.games.st_patrick.commands import ChoosePassCount, PassCards, PlayCard
from domain.games.st_patrick.events import (
    CardsPassed,
    CardsReceived,
    GameEnded,
    HandPassed,
    HuntStarted,
    PassCountSet,
    RelicPhaseStarted,
    RelicsCursed,
    RoundScored,
    TrickWon,
)
from domain.games.st_patrick.state import bites_of, deck
from tests.domain.stp_support import (
    card,
    cards,
    dealt,
    decline,
    hunting,
    in_relics,
    play,
    score,
    shuffled,
    step,
    steps,
    take,
)
from tests.domain.support import visible_pairs

# S1 -----------------------------------------------------------------------------------------


def test_s1_the_deck_has_four_suits_of_nine_and_fifteen_bites():
    cards_ = deck()
    assert len(cards_) == len(set(cards_)) == 36
    assert {c.suit for c in cards_} == {"clover", "cross", "harp", "snake"}
    assert {c.rank for c in cards_} == set(range(1, 10))
    assert sum(bites_of(c) for c in cards_) == 15
    assert [bites_of(c) for c in cards("s1 s9 x7 h7 c7 x8 h6 c9")] == [1, 1, 3, 3, 0, 0, 0, 0]


# S2 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(3, 12), (4, 9)])
def test_s2_every_card_is_dealt_in_deck_order_and_everyone_starts_at_20_life(players, size):
    the_deck = shuffled(7)
    state = dealt(players, the_deck)
    assert [state.hands[s] for s in range(players)] == [
        the_deck[s * size : (s + 1) * size] for s in range(players)
    ]
    assert state.life == (20,) * players
    assert state.round == 1 and GAME.cards_to_deal(state) is None


def test_s2_st_patrick_seats_three_or_four_and_its_option_is_a_boolean():
    for players, options in ((2, {}), (5, {}), (3, {"first_lead_snake_allowed": "no"})):
        with pytest.raises(InvalidSetup):
            GAME.check_options(players, {**GAME.options, **options})
    assert GAME.options == {"first_lead_snake_allowed": True}  # S7: the English book


# S3 -----------------------------------------------------------------------------------------


def test_s3_in_round_1_every_seat_passes_one_card_to_the_left_at_once():
    state = dealt(3, shuffled(1))
    assert state.phase == "passing" and GAME.to_act(state) == (0, 1, 2)
    assert GAME.legal_actions(state, 0)[0]["count"] == 1
    chosen = {seat: state.hands[seat][:1] for seat in range(3)}
    state, first = step(state, PassCards(0, chosen[0]))
    assert first == [CardsPassed(0, chosen[0])] and first[0].visible_to() == (0,)
    assert not visible_pairs(GAME.view(state, 1)) & {(c.suit, c.rank) for c in chosen[0]}
    state, events = steps(state, [PassCards(1, chosen[1]), PassCards(2, chosen[2])])

    received = [e for e in events if isinstance(e, CardsReceived)]
    assert received == [CardsReceived(s, (s - 1) % 3, chosen[(s - 1) % 3]) for s in range(3)]
    assert all(
        len(hand) == 12 and chosen[(s - 1) % 3][0] in hand for s, hand in enumerate(state.hands)
    )
    assert state.phase == "relics"


def test_s3_later_the_single_lowest_life_chooses_the_count_after_seeing_its_hand():
    state = dealt(3, shuffled(2), round=1, life=(20, 12, 15))
    assert state.phase == "choosing_pass_count" and GAME.to_act(state) == (1,)
    assert GAME.legal_actions(state, 1) == [{"type": "choose_pass_count", "min": 0, "max": 2}]
    assert len(GAME.view(state, 1)["you"]["hand"]) == 12  # it sees its new hand first
    with pytest.raises(IllegalAction):
        step(state, ChoosePassCount(0, 2))

    state, events = step(state, ChoosePassCount(1, 2))

    assert events == [PassCountSet(2, 1)] and state.phase == "passing"
    assert GAME.legal_actions(state, 0)[0]["count"] == 2


def test_s3_a_count_of_zero_skips_the_passing():
    state = dealt(3, shuffled(3), round=1, life=(20, 12, 15))
    hands = state.hands
    state, events = step(state, ChoosePassCount(1, 0))
    assert isinstance(events[-1], RelicPhaseStarted) and state.phase == "relics"
    assert state.hands == hands


def test_s3_a_tie_for_the_lowest_life_means_one_card_without_a_choice():
    state = dealt(4, shuffled(4), round=3, life=(9, 14, 9, 20))
    assert state.phase == "passing" and state.pass_count == 1
    assert GAME.to_act(state) == (0, 1, 2, 3)


# S4 -----------------------------------------------------------------------------------------


def test_s4_the_holder_of_clover_7_starts_the_relic_phase():
    state = dealt(3, shuffled(5))
    state, _ = steps(state, [PassCards(s, state.hands[s][-1:]) for s in range(3)])
    holder = next(s for s, hand in enumerate(state.hands) if card("c7") in hand)
    assert GAME.to_act(state) == (holder,)
    assert GAME.legal_actions(state, holder) == [
        {"type": "take_relics", "min": 1, "max": 15},
        {"type": "pass_relics"},
    ]


def test_s4_a_take_then_every_other_seat_passing_starts_the_hunt_without_asking_the_taker():
    state = in_relics(["x1", "x2", "c7", "x3"], starter=2)
    state, events = steps(state, [take(2, 3), decline(3), decline(0), decline(1)])
    assert events[-1] == HuntStarted(leader=2, special=False)
    assert state.phase == "playing" and state.relics == (0, 0, 3, 0)


def test_s4_a_pass_does_not_stop_a_later_take_and_a_take_restarts_the_count():
    state = in_relics(["x1", "x2", "c7", "x3"], starter=2)
    state, _ = steps(state, [decline(2), take(3, 2), decline(0), decline(1), take(2, 1)])
    assert state.phase == "relics" and state.relics == (0, 0, 1, 2)
    state, _ = steps(state, [decline(3), decline(0)])
    assert state.phase == "relics"
    state, events = step(state, decline(1))
    assert isinstance(events[-1], HuntStarted) and state.relics_left == 12


def test_s4_all_seats_passing_without_a_take_starts_the_hunt_with_no_relics():
    state = in_relics(["c7", "x2", "x3"], starter=0)
    state, events = steps(state, [decline(0), decline(1)])
    assert state.phase == "relics"
    state, events = step(state, decline(2))
    assert events[-1] == HuntStarted(leader=0, special=False) and state.relics == (0, 0, 0)


def test_s4_only_the_seat_to_act_takes_between_one_and_the_relics_left():
    state = in_relics(["c7", "x2", "x3"], starter=0, relics_left=4)
    for command in (take(1, 1), take(0, 0), take(0, 5)):
        with pytest.raises(IllegalAction):
            step(state, command)
    assert GAME.legal_actions(state, 0)[0] == {"type": "take_relics", "min": 1, "max": 4}


# S5 -----------------------------------------------------------------------------------------


def test_s5_emptying_the_middle_curses_returns_relics_and_hands_go_left():
    hands = ["c7 s1", "x1 s2", "h1 s3", "c1 s4"]
    state = in_relics(hands, starter=0, passed=(cards("c2"),) * 4)
    state, events = steps(state, [take(0, 6), decline(1), take(2, 9)])  # 15 taken: curse

    assert events[-6] == RelicsCursed(curse=1, losses=(6, 0, 9, 0), life=(14, 20, 11, 20))
    assert state.life == (14, 20, 11, 20)
    moved = [e for e in events if isinstance(e, HandPassed)]
    assert [(e.seat, e.from_seat, e.cards) for e in moved] == [
        (s, (s - 1) % 4, cards(hands[(s - 1) % 4])) for s in range(4)
    ]
    assert all(e.visible_to() == (e.seat, e.from_seat) for e in moved)
    assert events[-1] == RelicPhaseStarted(number=2, starter=1)  # seat 1 now holds clover 7
    assert state.phase == "relics" and state.relics == (0,) * 4 and state.relics_left == 15
    assert state.passed == (cards("c2"),) * 4  # no card passing again
    assert not visible_pairs(GAME.view(state, 3)) & {("clover", 7), ("snake", 1)}


# S6 -----------------------------------------------------------------------------------------


def test_s6_three_curses_at_three_players_lead_to_the_special_hunt_and_its_scoring():
    hands = ["c7 s9", "c1 s1", "c2 x7"]
    state = in_relics(hands, starter=0)
    state, _ = steps(state, [take(0, 5), take(1, 5), take(2, 5)])  # curse 1: -5 each
    assert state.relic_turn == 1
    state, _ = step(state, take(1, 15))  # curse 2: seat 1 drops to 0, the round goes on
    assert state.life == (15, 0, 15) and not GAME.is_terminal(state)
    state, events = steps(state, [take(2, 1), take(0, 6), take(1, 8)])  # curse 3

    assert events[-1] == HuntStarted(leader=0, special=True)
    assert state.hands == tuple(cards(hand) for hand in hands)  # back with their holders
    assert state.relics == (6, 8, 1) and state.life == (9, -8, 14)
    state, _ = play(state, ["c7", "c1", "c2", "s9", "s1", "x7"])  # seat 0 takes 5 bites
    state, events = score(state)

    scored = events[0]
    assert isinstance(scored, RoundScored) and scored.special
    assert scored.bites == (5, 0, 0) and scored.changes == (1, 1, 1)
    assert state.life == (10, -7, 15)
    assert events[-1] == GameEnded((2,), (0, 1), events[-1].final)


def test_s6_in_the_special_hunt_more_bites_than_relics_costs_nothing():
    state = hunting(["s9", "s1", "s2"], leader=0, special_hunt=True, relics=(1, 0, 0))
    state, _ = play(state, ["s9", "s1", "s2"])
    _, events = score(state)
    assert events[0].changes == (0, 1, 1) and events[0].life == (20, 21, 21)


# S7 -----------------------------------------------------------------------------------------


def test_s7_the_first_lead_may_be_a_snake_by_default():
    state = hunting(["s3 c1", "c2 c3", "c4 c5"], leader=0)
    assert card("s3") in cards_of(GAME.legal_actions(state, 0)[0]["cards"])
    state, events = step(state, PlayCard(0, card("s3")))
    assert state.trick


def test_s7_with_the_french_option_the_first_lead_is_no_snake_unless_only_snakes():
    state = hunting(["s3 c1", "c2 c3", "c4 c5"], leader=0, first_lead_snake_allowed=False)
    assert cards_of(GAME.legal_actions(state, 0)[0]["cards"]) == {card("c1")}
    with pytest.raises(IllegalAction, match="snake"):
        step(state, PlayCard(0, card("s3")))
    only_snakes = hunting(["s3 s4", "c2 c3", "c4 c5"], leader=0, first_lead_snake_allowed=False)
    assert step(only_snakes, PlayCard(0, card("s3")))[0].trick
    later = replace(state, tricks_played=1)
    assert step(later, PlayCard(0, card("s3")))[0].trick


def test_s7_follow_suit_off_suit_never_wins_and_the_winner_leads_next():
    state = hunting(["c3 s1", "c5 x1", "s9 h9", "c4 x2"], leader=0)
    with pytest.raises(IllegalAction, match="follow suit"):
        play(state, ["c3", "x1"])
    state, events = play(state, ["c3", "c5", "s9", "c4"])
    assert events[-1] == TrickWon(1, cards("c3 c5 s9 c4"), bites=1)
    assert GAME.to_act(state) == (1,) and state.bite_cards[1] == cards("s9")


# S8 -----------------------------------------------------------------------------------------


def test_s8_life_lost_is_bites_beyond_relics_and_scoring_waits_for_the_workers():
    state = hunting(
        ["c9", "c1", "c2"],
        leader=0,
        relics=(1, 3, 0),
        bite_cards=(cards("x7 s1"), cards("s2"), cards("s3 s4")),
    )
    state, _ = play(state, ["c9", "c1", "c2"])
    assert state.phase == "scoring" and GAME.to_act(state) == ()
    assert GAME.automatic(state) == "scoring"
    with pytest.raises(IllegalAction):
        step(state, Automatic("bot-0"))

    state, events = score(state)

    assert events == [RoundScored(1, (4, 1, 2), (1, 3, 0), (-3, 0, -2), (17, 20, 18), None, False)]
    assert state.phase == "dealing" and GAME.automatic(state) is None


def test_s8_the_big_sacrifice_costs_every_other_seat_3_whatever_its_relics():
    twelve = cards("s1 s2 s3 s4 s5 s6 s7 s8 s9 x7")
    state = hunting(["h9", "h7", "h1", "h2"], leader=0, relics=(0, 10, 5, 0))
    state = replace(state, bite_cards=(twelve, (), (), ()))
    state, _ = play(state, ["h9", "h7", "h1", "h2"])
    _, events = score(state)
    assert events[0].bites == (15, 0, 0, 0) and events[0].big_sacrifice == 0
    assert events[0].changes == (0, -3, -3, -3)


# S9 -----------------------------------------------------------------------------------------


def scoring(life, relics, taken: list[str]):
    """A round over, waiting for its scoring."""
    state = hunting([""] * len(life), leader=0, life=life, relics=relics, phase="scoring")
    return replace(state, bite_cards=tuple(cards(text) for text in taken))


def test_s9_the_game_ends_after_scoring_and_the_highest_life_wins_even_below_zero():
    state, events = score(scoring((-2, -5, -1), (0, 0, 0), ["", "", ""]))
    assert events[-1].winners == (2,) and events[-1].losers == (0, 1)
    assert events[-1].final["2"] == {"life": -1, "relics": 0, "bites": 0, "snakes": 0}
    assert GAME.is_terminal(state) and GAME.view(state, None)["result"]["winners"] == [2]


def test_s9_a_tie_on_life_goes_to_the_most_relics_held_at_the_end_before_snakes():
    _, events = score(scoring((0, 5, 5), (0, 4, 3), ["", "", "s1 s2"]))
    assert events[0].life == (0, 5, 5)  # seat 2's 2 bites are covered by its 3 relics
    assert events[-1].winners == (1,)


def test_s9_then_to_the_most_snake_cards_won_in_the_last_round_not_the_most_bites():
    _, events = score(scoring((0, 5, 5), (2, 3, 3), ["", "s1 s2", "x7"]))
    assert events[-1].winners == (1,)


def test_s9_seats_still_tied_share_the_victory():
    _, events = score(scoring((0, 5, 5), (2, 3, 3), ["", "s1", "s2"]))
    assert events[-1].winners == (1, 2) and events[-1].losers == (0,)


def test_s9_no_end_while_every_life_is_above_zero():
    state, events = score(scoring((1, 5, 5), (0, 0, 0), ["", "", ""]))
    assert [type(e) for e in events] == [RoundScored] and not GAME.is_terminal(state)


# S10 ----------------------------------------------------------------------------------------


def test_s10_after_scoring_a_fresh_round_is_dealt_keeping_life_only():
    state, _ = score(scoring((3, 5, 7), (2, 3, 3), ["s1", "s2 s3", "x7"]))
    assert GAME.cards_to_deal(state) == deck()
    state = step(state, Deal(shuffled(9), "s", 0))[0]
    assert state.round == 2 and state.life == (3, 5, 7)
    assert state.relics == (0, 0, 0) and state.bite_cards == ((), (), ())
    assert state.phase == "choosing_pass_count" and GAME.to_act(state) == (0,)


def cards_of(values: list[dict]) -> set[Card]:
    return {Card.from_json(value) for value in values}
