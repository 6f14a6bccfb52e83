"""One test (or a few) per ruling S1-S10 of St Patrick, written given / when / then."""

from __future__ import annotations

import pytest

from domain.games.st_patrick import GAME
from domain.games.st_patrick.events import (
    CardsPassed,
    CardsReceived,
    ChoosePassCount,
    GameEnded,
    HandPassed,
    HuntStarted,
    PassCards,
    PassCountSet,
    RelicPhaseStarted,
    RelicsCursed,
    RelicsDeclined,
    RelicsTaken,
    RoundScored,
)
from domain.games.st_patrick.state import DECK, bites_of
from domain.kit.cards import Card
from domain.kit.decider import Automatic, Deal, IllegalAction, InvalidSetup
from domain.kit.templates import with_send
from domain.shared.passing import passed_left
from tests.domain.stp_support import (
    card,
    cards,
    dealt,
    decline,
    given,
    hunt,
    play,
    played,
    relics,
    round_scored,
    round_to_score,
    shuffled,
    take,
    trick,
    won,
)
from tests.domain.support import visible_pairs

SCORE = Automatic("scoring")

# S1 -----------------------------------------------------------------------------------------


def test_s1_the_deck_has_four_suits_of_nine_and_fifteen_bites():
    assert len(DECK) == len(set(DECK)) == 36
    assert {c.suit for c in DECK} == {"clover", "cross", "harp", "snake"}
    assert {c.rank for c in DECK} == set(range(1, 10))
    assert sum(bites_of(c) for c in DECK) == 15
    assert [bites_of(c) for c in cards("s1 s9 x7 h7 c7 x8 h6 c9")] == [1, 1, 3, 3, 0, 0, 0, 0]


# S2 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(3, 12), (4, 9)])
def test_s2_every_card_is_dealt_in_deck_order_and_everyone_starts_at_20_life(players, size):
    deck = shuffled(7)
    state = given(players=players).when(Deal(deck, "salt", 0)).state
    assert list(state.hands) == [deck[s * size : (s + 1) * size] for s in range(players)]
    assert state.life == (20,) * players
    assert state.round == 1 and GAME.cards_to_deal(state) is None


def test_s2_st_patrick_seats_three_or_four_and_its_option_is_a_boolean():
    for players, options in ((2, {}), (5, {}), (3, {"first_lead_snake_allowed": "no"})):
        with pytest.raises(InvalidSetup):
            GAME.check_options(players, {**GAME.options, **options})
    assert GAME.options == {"first_lead_snake_allowed": True}  # S7: the English book


# S3 -----------------------------------------------------------------------------------------


def test_s3_in_round_1_every_seat_passes_one_card_to_the_left_at_once():
    passing = given(players=3).when(Deal(shuffled(1), "salt", 0))
    assert passing.events[-1] == PassCountSet(1, None)
    state = passing.state
    assert state.phase == "passing" and GAME.to_act(state) == (0, 1, 2)
    assert GAME.legal_actions(state, 0)[0]["count"] == 1
    chosen = [state.hands[seat][:1] for seat in range(3)]

    first = passing.when(PassCards(0, chosen[0])).then(CardsPassed(0, chosen[0]))

    assert first.events[0].visible_to() == (0,)
    assert not visible_pairs(GAME.view(first.state, 1)) & {(c.suit, c.rank) for c in chosen[0]}
    last = first.when(PassCards(1, chosen[1])).when(PassCards(2, chosen[2]))
    starter = next(s for s, hand in enumerate(last.state.hands) if card("c7") in hand)
    last.then(
        CardsPassed(2, chosen[2]),
        *(CardsReceived(s, (s - 1) % 3, chosen[(s - 1) % 3]) for s in range(3)),
        RelicPhaseStarted(1, starter),
    )
    assert all(len(hand) == 12 for hand in last.state.hands)
    assert last.state.phase == "relics"


def test_s3_later_the_single_lowest_life_chooses_the_count_after_seeing_its_hand():
    round_2 = given(dealt(["c1", "c2", "c3"]), round_scored((20, 12, 15)))
    choosing = round_2.when(Deal(shuffled(2), "salt", 0))
    state = choosing.state
    assert state.phase == "choosing_pass_count" and GAME.to_act(state) == (1,)
    assert GAME.legal_actions(state, 1) == with_send(
        [{"type": "choose_pass_count", "min": 0, "max": 2}]
    )
    assert len(GAME.view(state, 1)["you"]["hand"]) == 12  # it sees its new hand first
    choosing.when(ChoosePassCount(0, 2)).then_refused(IllegalAction, "lowest life")

    chosen = choosing.when(ChoosePassCount(1, 2)).then(PassCountSet(2, 1))

    assert chosen.state.phase == "passing"
    assert GAME.legal_actions(chosen.state, 0)[0]["count"] == 2


def test_s3_a_count_of_zero_skips_the_passing():
    round_2 = given(dealt(["c1", "c2", "c3"]), round_scored((20, 12, 15)))
    choosing = round_2.when(Deal(shuffled(3), "salt", 0))
    starter = next(s for s, hand in enumerate(choosing.state.hands) if card("c7") in hand)
    none = choosing.when(ChoosePassCount(1, 0)).then(
        PassCountSet(0, 1), RelicPhaseStarted(1, starter)
    )
    assert none.state.phase == "relics" and none.state.hands == choosing.state.hands


def test_s3_a_tie_for_the_lowest_life_means_one_card_without_a_choice():
    round_2 = given(dealt(["c1", "c2", "c3", "c4"]), round_scored((9, 14, 9, 20)))
    passing = round_2.when(Deal(shuffled(4), "salt", 0))
    assert passing.events[-1] == PassCountSet(1, None)
    assert passing.state.phase == "passing" and GAME.to_act(passing.state) == (0, 1, 2, 3)


# S4 -----------------------------------------------------------------------------------------


def test_s4_the_holder_of_clover_7_starts_the_relic_phase():
    passing = given(players=3).when(Deal(shuffled(5), "salt", 0))
    hands = passing.state.hands
    two_passed = passing.when(PassCards(0, hands[0][-1:])).when(PassCards(1, hands[1][-1:]))
    relic_phase = two_passed.when(PassCards(2, hands[2][-1:]))
    holder = next(s for s, hand in enumerate(relic_phase.state.hands) if card("c7") in hand)
    assert relic_phase.events[-1] == RelicPhaseStarted(1, holder)
    assert GAME.to_act(relic_phase.state) == (holder,)
    assert GAME.legal_actions(relic_phase.state, holder) == with_send(
        [{"type": "take_relics", "min": 1, "max": 15}, {"type": "pass_relics"}]
    )


def test_s4_a_take_then_every_other_seat_passing_starts_the_hunt_without_asking_the_taker():
    took = given(dealt(["x1", "x2", "c7", "x3"]), relics(starter=2), RelicsTaken(2, 3, 12))
    last_pass = took.when(decline(3)).when(decline(0))
    hunt_on = last_pass.when(decline(1)).then(RelicsDeclined(1), HuntStarted(2, special=False))
    assert hunt_on.state.phase == "playing" and hunt_on.state.relics == (0, 0, 3, 0)


def test_s4_a_pass_does_not_stop_a_later_take_and_a_take_restarts_the_count():
    phase = given(dealt(["x1", "x2", "c7", "x3"]), relics(starter=2))
    after = phase.when(decline(2)).when(take(3, 2)).when(decline(0)).when(decline(1))
    retaken = after.when(take(2, 1)).then(RelicsTaken(2, 1, 12))
    assert retaken.state.phase == "relics" and retaken.state.relics == (0, 0, 1, 2)
    two_passes = retaken.when(decline(3)).when(decline(0))
    assert two_passes.state.phase == "relics"
    two_passes.when(decline(1)).then(RelicsDeclined(1), HuntStarted(2, special=False))


def test_s4_all_seats_passing_without_a_take_starts_the_hunt_with_no_relics():
    one_pass = given(dealt(["c7", "x2", "x3"]), relics(starter=0), RelicsDeclined(0))
    two_passes = one_pass.when(decline(1))
    assert two_passes.state.phase == "relics"
    hunt_on = two_passes.when(decline(2)).then(RelicsDeclined(2), HuntStarted(0, special=False))
    assert hunt_on.state.relics == (0, 0, 0)


def test_s4_only_the_seat_to_act_takes_between_one_and_the_relics_left():
    four_left = given(dealt(["c7", "x2", "x3"]), relics(starter=0, held=(0, 5, 6)))  # seat 0
    for command in (take(1, 1), take(0, 0), take(0, 5)):
        four_left.when(command).then_refused(IllegalAction)
    (taking, _) = GAME.legal_actions(four_left.state, 0)
    assert (taking["min"], taking["max"]) == (1, 4)


# S5 -----------------------------------------------------------------------------------------


def test_s5_emptying_the_middle_curses_returns_relics_and_hands_go_left():
    dealt_hands = ["c7 s1 c2", "x1 s2 c3", "h1 s3 c4", "c1 s4 c5"]
    passing = [PassCountSet(1, None), *(CardsPassed(s, cards(f"c{s + 2}")) for s in range(4))]
    arrived = passed_left([cards(f"c{s + 2}") for s in range(4)])
    hands = ["c7 s1 c5", "x1 s2 c2", "h1 s3 c3", "c1 s4 c4"]  # after the passing
    nine_left = given(dealt(dealt_hands), passing, arrived, relics(0, held=(6,)), RelicsDeclined(1))

    cursed = nine_left.when(take(2, 9))  # 15 taken: the curse

    cursed.then(
        RelicsTaken(2, 9, 0),
        RelicsCursed(curse=1, losses=(6, 0, 9, 0), life=(14, 20, 11, 20)),
        *(HandPassed(s, (s - 1) % 4, cards(hands[(s - 1) % 4])) for s in range(4)),
        RelicPhaseStarted(number=2, starter=1),  # seat 1 now holds clover 7
    )
    state = cursed.state
    assert all(e.visible_to() == (e.seat, e.from_seat) for e in cursed.events[2:6])
    assert state.life == (14, 20, 11, 20)
    assert state.phase == "relics" and state.relics == (0,) * 4 and state.relics_left == 15
    assert GAME.to_act(state) == (1,)
    assert state.passed == tuple((card(f"c{s + 2}"),) for s in range(4))  # no passing again
    assert not visible_pairs(GAME.view(state, 3)) & {("clover", 7), ("snake", 1)}


# S6 -----------------------------------------------------------------------------------------


def test_s6_three_curses_at_three_players_lead_to_the_special_hunt_and_its_scoring():
    hands = ["c7 s9", "c1 s1", "c2 x7"]
    phase = given(dealt(hands), relics(starter=0))
    first_curse = phase.when(take(0, 5)).when(take(1, 5)).when(take(2, 5))  # -5 each
    assert first_curse.state.relic_turn == 1
    second_curse = first_curse.when(take(1, 15))  # seat 1 drops to 0, the round goes on
    assert second_curse.state.life == (15, 0, 15) and not GAME.is_terminal(second_curse.state)

    third_curse = second_curse.when(take(2, 1)).when(take(0, 6)).when(take(1, 8))

    assert third_curse.events[-1] == HuntStarted(leader=0, special=True)
    state = third_curse.state
    assert state.hands == tuple(cards(hand) for hand in hands)  # back with their holders
    assert state.relics == (6, 8, 1) and state.life == (9, -8, 14)
    first_trick = [play(0, "c7"), play(1, "c1"), play(2, "c2")]
    last_card = third_curse.when_all(*first_trick, play(0, "s9"), play(1, "s1"))
    scored = last_card.when(play(2, "x7")).when(SCORE)  # seat 0 takes 5 bites

    special_scored, ended = scored.events
    assert isinstance(special_scored, RoundScored) and special_scored.special
    assert special_scored.bites == (5, 0, 0) and special_scored.changes == (1, 1, 1)
    assert scored.state.life == (10, -7, 15)
    assert ended == GameEnded((2,), (0, 1), ended.final)


def test_s6_in_the_special_hunt_more_bites_than_relics_costs_nothing():
    special = given(dealt(["s9", "s1", "s2"]), hunt(0, held=(1, 0, 0), special=True))
    over = special.when(play(0, "s9")).when(play(1, "s1")).when(play(2, "s2"))
    scored = over.when(SCORE).events[0]
    assert scored.changes == (0, 1, 1) and scored.life == (20, 21, 21)


# S7 -----------------------------------------------------------------------------------------


def test_s7_the_first_lead_may_be_a_snake_by_default():
    hunt_on = given(dealt(["s3 c1", "c2 c3", "c4 c5"]), hunt(0))
    assert card("s3") in cards_of(GAME.legal_actions(hunt_on.state, 0)[0]["cards"])
    hunt_on.when(play(0, "s3")).then(played(0, "s3"))


def test_s7_with_the_french_option_the_first_lead_is_no_snake_unless_only_snakes():
    french = {"first_lead_snake_allowed": False}
    hunt_on = given(dealt(["s3 c1", "c2 c3", "c4 c5"]), hunt(0), options=french)
    assert cards_of(GAME.legal_actions(hunt_on.state, 0)[0]["cards"]) == {card("c1")}
    hunt_on.when(play(0, "s3")).then_refused(IllegalAction, "snake")
    only_snakes = given(dealt(["s3 s4", "c2 c3", "c4 c5"]), hunt(0), options=french)
    only_snakes.when(play(0, "s3")).then(played(0, "s3"))
    later = given(
        dealt(["c6 s3", "c2 c3", "c4 c5"]), hunt(0), trick("c6 c2 c4", 0, 0), options=french
    )
    later.when(play(0, "s3")).then(played(0, "s3"))


def test_s7_follow_suit_off_suit_never_wins_and_the_winner_leads_next():
    hunt_on = given(dealt(["c3 s1", "c5 x1", "s9 h9", "c4 x2"]), hunt(0), played(0, "c3"))
    hunt_on.when(play(1, "x1")).then_refused(IllegalAction, "follow suit")
    last_card = hunt_on.when(play(1, "c5")).when(play(2, "s9"))
    trick_won = last_card.when(play(3, "c4")).then(played(3, "c4"), won(1, "c3 c5 s9 c4"))
    assert GAME.to_act(trick_won.state) == (1,) and trick_won.state.bite_cards[1] == cards("s9")


# S8 -----------------------------------------------------------------------------------------


def test_s8_life_lost_is_bites_beyond_relics_and_scoring_waits_for_the_workers():
    last_trick = given(
        dealt(["x7 c8 c9", "x8 s2 c1", "x1 s3 c2"]),
        hunt(0, held=(1, 3, 0)),
        trick("x7 x8 x1", leader=0, winner=1),  # 3 bites to seat 1
        trick("s2 s3 c8", leader=1, winner=2),  # 2 bites to seat 2
        [played(2, "c2"), played(0, "c9")],
    )
    over = last_trick.when(play(1, "c1"))
    assert over.state.phase == "scoring" and GAME.to_act(over.state) == ()
    assert GAME.automatic(over.state) == "scoring"
    over.when(Automatic("bot-0")).then_refused(IllegalAction)

    scored = over.when(SCORE).then(
        RoundScored(1, (0, 3, 2), (1, 3, 0), (0, 0, -2), (20, 20, 18), None, False)
    )

    assert scored.state.phase == "dealing" and GAME.automatic(scored.state) is None


def test_s8_the_big_sacrifice_costs_every_other_seat_3_whatever_its_relics():
    all_bites = "s1 s2 s3 s4 s5 s6 s7 s8 s9 x7 h7"
    over = given(round_to_score((20, 20, 20, 20), (0, 10, 5, 0), [all_bites, "", "", ""]))
    scored = over.when(SCORE).events[0]
    assert scored.bites == (15, 0, 0, 0) and scored.big_sacrifice == 0
    assert scored.changes == (0, -3, -3, -3)


# S9 -----------------------------------------------------------------------------------------


def test_s9_the_game_ends_after_scoring_and_the_highest_life_wins_even_below_zero():
    ended = given(round_to_score((-2, -5, -1), (0, 0, 0), ["", "", ""])).when(SCORE)
    last = ended.events[-1]
    assert last.winners == (2,) and last.losers == (0, 1)
    assert last.final["2"] == {"life": -1, "relics": 0, "bites": 0, "snakes": 0}
    assert GAME.is_terminal(ended.state)
    assert GAME.view(ended.state, None)["result"]["winners"] == [2]


def test_s9_a_tie_on_life_goes_to_the_most_relics_held_at_the_end_before_snakes():
    ended = given(round_to_score((0, 5, 5), (0, 4, 3), ["", "", "s1 s2"])).when(SCORE)
    assert ended.events[0].life == (0, 5, 5)  # seat 2's 2 bites are covered by its 3 relics
    assert ended.events[-1].winners == (1,)


def test_s9_then_to_the_most_snake_cards_won_in_the_last_round_not_the_most_bites():
    ended = given(round_to_score((0, 5, 5), (2, 3, 3), ["", "s1 s2", "x7"])).when(SCORE)
    assert ended.events[-1].winners == (1,)


def test_s9_seats_still_tied_share_the_victory():
    ended = given(round_to_score((0, 5, 5), (2, 3, 3), ["", "s1", "s2"])).when(SCORE)
    assert ended.events[-1].winners == (1, 2) and ended.events[-1].losers == (0,)


def test_s9_no_end_while_every_life_is_above_zero():
    scored = given(round_to_score((1, 5, 5), (0, 0, 0), ["", "", ""])).when(SCORE)
    assert [type(e) for e in scored.events] == [RoundScored]
    assert not GAME.is_terminal(scored.state)


# S10 ----------------------------------------------------------------------------------------


def test_s10_after_scoring_a_fresh_round_is_dealt_keeping_life_only():
    scored = given(round_to_score((3, 5, 7), (2, 3, 3), ["s1", "s2 s3", "x7"])).when(SCORE)
    assert GAME.cards_to_deal(scored.state) == DECK
    state = scored.when(Deal(shuffled(9), "s", 0)).state
    assert state.round == 2 and state.life == (3, 5, 7)
    assert state.relics == (0, 0, 0) and state.bite_cards == ((), (), ())
    assert state.phase == "choosing_pass_count" and GAME.to_act(state) == (0,)


def cards_of(values: list[dict]) -> set[Card]:
    return {Card.from_json(value) for value in values}
