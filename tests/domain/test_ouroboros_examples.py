"""The rulebook's worked examples (its section 8, and "when you run out of cards" in section 9),
given / when / then. Players A, B, C, D (and E) sit in seats 0, 1, 2, 3 (and 4); A leads."""

from __future__ import annotations

from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import CardsDiscarded, DiscardAwaited, PoolTaken, TrickWon
from domain.games.ouroboros_trick.state import deck_for
from domain.kit.decider import Deal
from tests.domain.ouro_support import cards, discard, discarded, given, play, played, playing

A, B, C, D, E = range(5)


def deck_dealing(hands: list[str]) -> tuple:
    """A whole 4-player deck in deal order: each seat's named cards, then filler to 12."""
    named = [cards(hand) for hand in hands]
    rest = [c for c in deck_for(4) if not any(c in hand for hand in named)]
    deck = []
    for hand in named:
        filler = 12 - len(hand)
        deck += [*hand, *rest[:filler]]
        rest = rest[filler:]
    return tuple(deck)


def test_example_1_the_highest_card_wins_and_its_winner_discards_7_cards_of_its_choice():
    # Given a fresh 4-player deal where A holds red 10, B red 7, C red 8 and D red 9
    deck = deck_dealing(["r10", "r7", "r8", "r9"])
    dealt = given(players=4, options={"first_leader": A}).when(Deal(deck, "salt", A))
    # When the four of them play those cards
    last_card = dealt.when(play(A, "r10")).when(play(B, "r7")).when(play(C, "r8"))
    owing = last_card.when(play(D, "r9"))
    # Then A wins with the highest number, the 4 cards go to A's pool, and A owes 7 cards
    owing.then(played(D, "r9"), TrickWon(A, cards("r10 r7 r8 r9"), 7), DiscardAwaited(A, 7))
    assert owing.state.pools[A] == cards("r10 r7 r8 r9")
    assert GAME.to_act(owing.state) == (A,)
    assert GAME.legal_actions(owing.state, A)[0]["count"] == 7
    # When A chooses 7 cards of the 11 left in hand
    chosen = owing.state.hands[A][:7]
    done = owing.when(GAME.commands["discard"](seat=A, cards=chosen))
    # Then they are discarded face up and A leads the next trick with 4 cards
    done.then(CardsDiscarded(A, chosen, forced=False))
    assert done.state.discards == chosen and len(done.state.hands[A]) == 4
    assert done.state.leader == A and GAME.to_act(done.state) == (A,)


def test_example_2_a_trump_wins_and_its_winner_discards_1_card():
    # Given B has no red card, and A led red 5, B trumped with yellow 3, C played red 1
    hands = ["r5 y1", "y3 g2 b7", "r1 g3", "r12 b4"]
    last_card = given(playing(hands, leader=A), played(A, "r5"), played(B, "y3"), played(C, "r1"))
    # When D plays red 12
    owing = last_card.when(play(D, "r12"))
    # Then B wins with the trump; the smallest number is 1, so B chooses 1 card to discard
    owing.then(played(D, "r12"), TrickWon(B, cards("r5 y3 r1 r12"), 1), DiscardAwaited(B, 1))
    assert owing.state.pools[B] == cards("r5 y3 r1 r12")
    done = owing.when(discard(B, "g2")).then(discarded(B, "g2"))
    assert done.state.hands[B] == cards("b7") and done.state.discards == cards("g2")
    assert done.state.leader == B and GAME.to_act(done.state) == (B,)


def test_example_3_the_later_of_two_equal_trumps_wins_and_discards_4_cards():
    # Given B and C have no red card; A led red 6, B trumped with blue 9, C with green 9
    hands = ["r6 y1", "b9 g2 g4 g5 g6", "g9 y2 y4 y5 y6 y7", "r4 b4"]
    last_card = given(playing(hands, leader=A), played(A, "r6"), played(B, "b9"), played(C, "g9"))
    # When D plays red 4
    owing = last_card.when(play(D, "r4"))
    # Then C wins (the same number played later); the smallest is 4: C discards 4 cards
    owing.then(played(D, "r4"), TrickWon(C, cards("r6 b9 g9 r4"), 4), DiscardAwaited(C, 4))
    done = owing.when(discard(C, "y2 y4 y5 y6")).then(discarded(C, "y2 y4 y5 y6"))
    assert done.state.hands[C] == cards("y7") and done.state.pools[C] == cards("r6 b9 g9 r4")
    assert done.state.leader == C and GAME.to_act(done.state) == (C,)


def test_running_out_d_plays_its_last_card_wins_takes_the_pool_and_discards_4():
    # Given 5 players and D with 1 card in hand and an empty pool
    hands = ["r5 b1", "r6 b2", "r7 b3", "y9", "r4 b5"]
    three_played = given(playing(hands, leader=A), played(A, "r5"), played(B, "r6"))
    # When D plays its last card: D has no hand and no pool, yet has not lost
    last_card = three_played.when(play(C, "r7")).when(play(D, "y9"))
    assert last_card.state.hands[D] == () and last_card.state.pools[D] == ()
    assert not GAME.is_terminal(last_card.state)
    # ... and wins the trick, whose smallest number is 4
    owing = last_card.when(play(E, "r4")).then(
        played(E, "r4"),
        TrickWon(D, cards("r5 r6 r7 y9 r4"), 4),
        PoolTaken(D, cards("r5 r6 r7 y9 r4")),  # 0 cards in hand: the pool becomes the hand
        DiscardAwaited(D, 4),
    )
    # Then D chooses 4 of those 5 cards, keeps 1 and leads the next trick
    done = owing.when(discard(D, "r5 r6 r7 r4")).then(discarded(D, "r5 r6 r7 r4"))
    assert done.state.hands[D] == cards("y9") and done.state.pools[D] == ()
    assert done.state.leader == D and GAME.to_act(done.state) == (D,)
    assert not GAME.is_terminal(done.state)
