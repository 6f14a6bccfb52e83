"""One test (or a few) per ruling O1-O6, written given / when / then."""

from __future__ import annotations

import random

import pytest

from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import (
    CardsDiscarded,
    DiscardAwaited,
    GameEnded,
    PoolTaken,
    TrickWon,
)
from domain.games.ouroboros_trick.state import deck_for
from domain.kit.decider import Deal, IllegalAction, InvalidSetup
from domain.kit.templates import with_send
from tests.domain.ouro_support import (
    card,
    cards,
    discard,
    discarded,
    given,
    play,
    played,
    playing,
    trick,
)
from tests.domain.support import visible_pairs

# O1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "top"), [(3, 9), (4, 12), (5, 15)])
def test_o1_the_deck_has_four_suits_ranked_by_table_size_and_is_dealt_out_12_each(players, top):
    to_deal = GAME.cards_to_deal(GAME.new_game(players, {"first_leader": None}))
    assert len(to_deal) == 4 * top == len(set(to_deal)) == 12 * players
    assert {c.suit for c in to_deal} == {"red", "yellow", "green", "blue"}
    assert {c.rank for c in to_deal} == set(range(1, top + 1))
    deck = tuple(random.Random(players).sample(to_deal, len(to_deal)))

    state = given(players=players).when(Deal(deck, "salt", 0)).state

    assert [len(hand) for hand in state.hands] == [12] * players
    assert sorted(c for hand in state.hands for c in hand) == sorted(to_deal)  # none left over
    assert state.hands[1] == deck[12:24]  # seat 1: the 2nd dozen


def test_o1_only_3_to_5_players_and_a_deal_of_other_cards_is_refused():
    for players in (2, 6):
        with pytest.raises(InvalidSetup):
            GAME.check_options(players, {"first_leader": None})
    wrong = Deal(deck_for(4)[:36], "salt", 0)
    given(players=3).when(wrong).then_refused(IllegalAction, "36 cards")


# O2 -----------------------------------------------------------------------------------------


def test_o2_the_first_leader_is_the_deals_random_pick_unless_the_option_names_a_seat():
    deal = Deal(deck_for(4), "salt", 2)
    assert given(players=4).when(deal).state.leader == 2
    assert given(players=4, options={"first_leader": 1}).when(deal).state.leader == 1
    for bad in (4, -1, "1", True, 1.0):
        with pytest.raises(InvalidSetup):
            GAME.check_options(4, {"first_leader": bad})


def test_o2_players_must_follow_the_led_suit_if_they_can():
    red_led = given(playing(["r3 b4", "r5 b12", "y1 y2"]), played(0, "r3"))
    red_led.when(play(1, "b12")).then_refused(IllegalAction, "follow suit")
    assert GAME.legal_actions(red_led.state, 1) == with_send(
        [{"type": "play_card", "cards": [card("r5").to_json()]}]
    )
    assert GAME.legal_actions(red_led.state, 2) == []  # not seat 2's turn: nothing at all


# O3 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ("r3 r9 r5", 1),  # no trump: the highest of the led suit
        ("r9 y1 r5", 1),  # any trump beats the led suit, however low
        ("r9 y4 b7", 2),  # the highest trump, whatever its suit
        ("r2 b8 g8", 2),  # equal trumps: the later one wins
        ("r2 b8 g7", 1),
    ],
)
def test_o3_a_trump_beats_the_led_suit_and_the_later_of_equal_trumps_wins(plays, winner):
    first, second, last = plays.split()
    last_card = given(playing([first, second, last]), played(0, first), played(1, second))
    trick_won = last_card.when(play(2, last)).events[1]
    assert isinstance(trick_won, TrickWon) and trick_won.seat == winner


# O4 -----------------------------------------------------------------------------------------


def test_o4_the_winner_pools_the_trick_and_chooses_k_cards_the_lowest_rank_in_it():
    last_card = given(
        playing(["b1 r6 y1 y2 y3 y4", "b5 r9 g1 g2 g3 g4", "b2 r2 b3"]),
        trick("b1 b5 b2", leader=0, winner=1, discarding="g4"),
        [played(1, "r9"), played(2, "r2")],
    )
    owing = last_card.when(play(0, "r6")).then(
        played(0, "r6"), TrickWon(1, cards("r9 r2 r6"), 2), DiscardAwaited(1, 2)
    )
    assert owing.state.pools[1] == cards("b1 b5 b2 r9 r2 r6")
    assert GAME.view(owing.state, None)["pending_discard"] == {"seat": 1, "count": 2}
    owing.when(discard(1, "g1")).then_refused(IllegalAction, "exactly 2")
    owing.when(discard(1, "g1 y1")).then_refused(IllegalAction, "do not hold")
    owing.when(discard(1, "g1 g1")).then_refused(IllegalAction, "more than once")
    owing.when(discard(0, "y1 y2")).then_refused(IllegalAction, "not your turn")
    done = owing.when(discard(1, "g1 g3")).then(discarded(1, "g1 g3"))
    assert done.state.hands[1] == cards("g2") and done.state.discards == cards("g4 g1 g3")


def test_o4_short_hand_the_whole_hand_goes_then_the_rest_is_chosen_from_the_pool():
    last_card = given(
        playing(["b1 r6 y1", "b7 r9 g1 g2", "b2 r3 b3"]),
        trick("b1 b7 b2", leader=0, winner=1, discarding="g2"),
        [played(1, "r9"), played(2, "r3")],
    )
    short = last_card.when(play(0, "r6")).then(  # k = 3, seat 1 holds 1 card
        played(0, "r6"),
        TrickWon(1, cards("r9 r3 r6"), 3),
        CardsDiscarded(1, cards("g1"), forced=True),
        PoolTaken(1, cards("b1 b7 b2 r9 r3 r6")),
        DiscardAwaited(1, 2),
    )
    whole_pool = [c.to_json() for c in cards("r3 r6 r9 b1 b2 b7")]
    assert GAME.legal_actions(short.state, 1) == with_send(
        [{"type": "discard", "count": 2, "cards": whole_pool}]
    )


def test_o4_a_discard_with_no_choice_is_made_without_asking():
    # exactly k cards in hand: all of them go; then the empty hand takes the pool (O5)
    exactly_k = given(
        playing(["r6 y1 y2", "r9 g1 g2", "r2 b1 b2"]), played(0, "r6"), played(1, "r9")
    )
    forced = exactly_k.when(play(2, "r2")).then(
        played(2, "r2"),
        TrickWon(1, cards("r6 r9 r2"), 2),
        CardsDiscarded(1, cards("g1 g2"), forced=True),
        PoolTaken(1, cards("r6 r9 r2")),
    )
    assert forced.state.phase == "playing" and GAME.to_act(forced.state) == (1,)
    # not enough even with the pool: everything is discarded, and seat 1 is out (O5)
    too_few = given(playing(["r7 y1", "r9 g1", "r8 b1"]), played(0, "r7"), played(1, "r9"))
    too_few.when(play(2, "r8")).then(  # k = 7: 1 in hand + 3 in the pool
        played(2, "r8"),
        TrickWon(1, cards("r7 r9 r8"), 7),
        CardsDiscarded(1, cards("g1"), forced=True),
        PoolTaken(1, cards("r7 r9 r8")),
        CardsDiscarded(1, cards("r7 r9 r8"), forced=True),
        GameEnded(winners=(0, 2), losers=(1,), final=counts((1, 0), (0, 0), (1, 0))),
    )


def counts(*hand_and_pool: tuple[int, int]) -> dict:
    """GameEnded's final figures: each seat's hand and pool sizes."""
    return {
        str(seat): {"hand_count": hand, "pool_count": pool}
        for seat, (hand, pool) in enumerate(hand_and_pool)
    }


def test_o4_no_card_is_played_while_the_winner_still_owes_a_discard():
    last_card = given(playing(["r6 y1 y2", "r9 g1 g2 g3", "r2 b1 b2"]), played(0, "r6"))
    owing = last_card.when(play(1, "r9")).when(play(2, "r2"))
    assert GAME.to_act(owing.state) == (1,) and owing.state.phase == "discarding"
    owing.when(play(1, "g1")).then_refused(IllegalAction, "discarding")


# O5 -----------------------------------------------------------------------------------------


def test_o5_every_empty_hand_takes_its_pool_and_a_player_with_neither_loses():
    seat_2_pooled = given(
        playing(["b1 r6 y1 y2", "b2 r9 g1 g2 g3", "b4 r2 b9"]),
        trick("b1 b2 b4", leader=0, winner=2, discarding="b9"),
        trick("r2 r6 r9", leader=2, winner=1),
    )
    refilled = seat_2_pooled.when(discard(1, "g1 g2"))  # seat 2 played its last card
    refilled.then(discarded(1, "g1 g2"), PoolTaken(2, cards("b1 b2 b4")))
    assert not GAME.is_terminal(refilled.state)

    nothing_pooled = given(playing(["r6 y1 y2", "r9 g1 g2 g3", "r2"]), played(0, "r6"))
    owing = nothing_pooled.when(play(1, "r9")).when(play(2, "r2"))
    out = owing.when(discard(1, "g1 g2")).then(
        discarded(1, "g1 g2"),
        GameEnded(winners=(0, 1), losers=(2,), final=counts((2, 0), (1, 3), (0, 0))),
    )
    assert GAME.is_terminal(out.state) and GAME.to_act(out.state) == ()
    assert GAME.view(out.state, None)["result"]["losers"] == [2]


def test_o5_several_players_can_lose_together():
    last_card = given(
        playing(["r6 y1", "r9 g1 g2", "r2", "r3"]), [played(0, "r6"), played(1, "r9")]
    )
    ended = last_card.when(play(2, "r2")).when(play(3, "r3")).events[-1]  # k = 2 of 2
    assert ended.winners == (0, 1) and ended.losers == (2, 3)


def test_o5_everyone_can_lose():
    last_card = given(playing(["r5", "r9", "r6"]), played(0, "r5"), played(1, "r9"))
    last_card.when(play(2, "r6")).then_ends_with(  # k = 5: seat 1 discards all 3 pooled
        GameEnded(winners=(), losers=(0, 1, 2), final=counts((0, 0), (0, 0), (0, 0)))
    )


# O6 -----------------------------------------------------------------------------------------


def test_o6_sizes_discards_and_the_discard_top_are_public_pools_only_to_their_owner():
    owing = given(
        playing(["b1 r6 y1 y2 y3", "b7 r9 g1 g2 g3 g4", "b2 r2 b3 b4"]),
        trick("b1 b7 b2", leader=0, winner=1, discarding="g4"),
        trick("r9 r2 r6", leader=1, winner=1),
    )
    done = owing.when(discard(1, "g3 g1"))
    assert done.events[0].visible_to() is None  # a discard is public the moment it is made
    spectator = GAME.view(done.state, None)
    sizes = [(s["hand_count"], s["pool_count"]) for s in spectator["seats"]]
    assert sizes == [(3, 0), (1, 6), (2, 0)]
    assert spectator["discard_top"] == card("g1").to_json()
    assert spectator["discard_count"] == 3
    assert "you" not in spectator
    pool = {(c.suit, c.rank) for c in cards("b1 b7 b2 r9 r2 r6")}
    assert {(c["suit"], c["rank"]) for c in GAME.view(done.state, 1)["you"]["pool"]} == pool
    for seat in (None, 0, 2):
        shown = visible_pairs(GAME.view(done.state, seat))
        assert ("blue", 7) not in shown and ("green", 3) not in shown  # not the pile's top


def test_o6_a_pool_taken_into_a_hand_is_a_count_to_everyone_but_its_owner():
    taken = PoolTaken(1, cards("b7 r6"))
    assert taken.visible_to() == (1,)
    assert taken.redacted() == {"seat": 1, "count": 2}
