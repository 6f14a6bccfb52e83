"""Saint Poker: constants (P1, P2), the state folded from events, and questions about it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.kit.cards import Card, build_deck, sort_by_suit
from domain.kit.game_state import Outcome

SUITS = ("spades", "hearts", "diamonds", "clubs")
RANKS = tuple(range(2, 15))  # 11 jack, 12 queen, 13 king, 14 ace
DECK = build_deck(SUITS, RANKS)
HAND_SIZE = 10
FUTURE_RIVER_SIZES = {2: 3, 3: 2, 4: 1, 5: 0}  # P1
ROUNDS = 8
REVEAL_COUNT = 2
PICKS_PER_SEAT = 2
SCORING = "scoring"  # the phase, and the automatic work it asks for


def deck_for(players: int) -> tuple[Card, ...]:
    return DECK  # P1: the 52 cards at every table size


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sort_by_suit(cards, SUITS)


@dataclass(frozen=True, slots=True)
class RankedHand:
    """One seat's hand in a round's ranking: `place` 1 is the best; equal hands share a place."""

    seat: int
    place: int
    strength: int
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class State:
    players: int
    phase: str = "dealing"  # dealing | committing | revealing | scoring | pickup | finished
    round: int = 1
    commitment: str | None = None
    hands: tuple[tuple[Card, ...], ...] = ()
    deck: tuple[Card, ...] = ()  # not yet turned: secret until the end
    river: tuple[Card, ...] = ()
    future_river: tuple[Card, ...] = ()
    committed: tuple[Card | None, ...] = ()  # G3: each seat's river card, until all have chosen
    chosen: tuple[tuple[Card, ...] | None, ...] = ()  # G3: each seat's reveal, likewise
    revealed: tuple[tuple[Card, ...], ...] = ()  # revealed cards still on the table, per seat
    points: tuple[int, ...] = ()
    ranking: tuple[RankedHand, ...] = ()  # the last scored round's, best first
    ranked_round: int | None = None
    pickup_order: tuple[int, ...] = ()  # P5: one seat per pick, both passes
    picks_made: int = 0
    discarded: tuple[Card, ...] = ()
    outcome: Outcome | None = None


def initial_state(players: int) -> State:
    return State(
        players=players,
        hands=((),) * players,
        committed=(None,) * players,
        chosen=(None,) * players,
        revealed=((),) * players,
        points=(0,) * players,
    )


def automatic(state: State) -> str | None:
    """Round scoring is work for the workers: nobody acts while it is due."""
    return SCORING if state.phase == SCORING else None


def picker(state: State) -> int | None:
    """The seat to pick up a card now, if the pickup is on."""
    if state.phase != "pickup" or state.picks_made >= len(state.pickup_order):
        return None
    return state.pickup_order[state.picks_made]


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == "committing":
        return tuple(seat for seat, card in enumerate(state.committed) if card is None)
    if state.phase == "revealing":
        return tuple(seat for seat, cards in enumerate(state.chosen) if cards is None)
    seat = picker(state)
    return () if seat is None else (seat,)


def on_the_table(state: State) -> tuple[Card, ...]:
    """What a pickup may take: the river and every revealed card still lying there."""
    return state.river + tuple(card for cards in state.revealed for card in cards)
