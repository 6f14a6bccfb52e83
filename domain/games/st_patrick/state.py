"""St Patrick: constants (S1, S2), the state folded from events, and questions about it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.kit.cards import Card, build_deck, sort_by_suit
from domain.kit.game_state import Outcome
from domain.shared.tricks import Trick
from domain.shared.tricks import card_turn as turn

SUITS = ("clover", "cross", "harp", "snake")
RANKS = tuple(range(1, 10))
SNAKE = "snake"
ST_PATRICK = Card("clover", 7)  # S1: its holder starts the relic phase and leads the hunt
BIG_BITES = frozenset({Card("cross", 7), Card("harp", 7)})  # S1: 3 bites each
HAND_SIZES = {3: 12, 4: 9}  # S2
START_LIFE = 20
RELICS = 15
TOTAL_BITES = 15
FIRST_ROUND_PASS = 1  # S3
MAX_PASS = 2
SACRIFICE_LOSS = 3  # S8


DECK = build_deck(SUITS, RANKS)


def deck_for(players: int) -> tuple[Card, ...]:
    return DECK  # S2: the same 36 cards, all dealt, at 3 or 4 players


def bites_of(card: Card) -> int:
    """S1: every snake card bites once, the cross and harp 7s three times, the rest never."""
    if card.suit == SNAKE:
        return 1
    return 3 if card in BIG_BITES else 0


def total_bites(cards: Iterable[Card]) -> int:
    return sum(bites_of(card) for card in cards)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sort_by_suit(cards, SUITS)


@dataclass(frozen=True, slots=True)
class State:
    players: int
    first_lead_snake_allowed: bool = True
    # dealing | choosing_pass_count | passing | relics | playing | scoring | finished
    phase: str = "dealing"
    round: int = 0
    commitment: str | None = None
    life: tuple[int, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    pass_count: int = 0
    pass_chooser: int | None = None
    passed: tuple[tuple[Card, ...] | None, ...] = ()  # each seat's choice, once made (G3)
    received: tuple[tuple[Card, ...] | None, ...] = ()
    relics: tuple[int, ...] = ()  # held per seat
    relics_left: int = RELICS  # in the middle
    relic_turn: int | None = None
    passes_in_a_row: int = 0  # S4: relic passes since the last take (or the phase's start)
    taken_this_phase: bool = False
    curses: int = 0  # this round
    special_hunt: bool = False  # S6
    leader: int | None = None
    trick: Trick = ()
    last_trick: Trick = ()
    tricks_played: int = 0
    bite_cards: tuple[tuple[Card, ...], ...] = ()  # face up before each trick winner (S7)
    tricks_won: tuple[int, ...] = ()
    outcome: Outcome | None = None


def initial_state(players: int, first_lead_snake_allowed: bool = True) -> State:
    return State(
        players=players,
        first_lead_snake_allowed=first_lead_snake_allowed,
        life=(START_LIFE,) * players,
        hands=((),) * players,
        passed=(None,) * players,
        received=(None,) * players,
        relics=(0,) * players,
        bite_cards=((),) * players,
        tricks_won=(0,) * players,
    )


def bites(state: State) -> tuple[int, ...]:
    return tuple(total_bites(cards) for cards in state.bite_cards)


def snakes_won(state: State) -> tuple[int, ...]:
    """S9's last tie-break: snake cards among the tricks won this round."""
    return tuple(sum(card.suit == SNAKE for card in cards) for cards in state.bite_cards)


def holder_of(hands: tuple[tuple[Card, ...], ...], card: Card) -> int:
    return next(seat for seat, hand in enumerate(hands) if card in hand)


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == "choosing_pass_count" and state.pass_chooser is not None:
        return (state.pass_chooser,)
    if state.phase == "passing":
        return tuple(seat for seat, cards in enumerate(state.passed) if cards is None)
    if state.phase == "relics" and state.relic_turn is not None:
        return (state.relic_turn,)
    seat = turn(state)
    return () if seat is None else (seat,)


def automatic(state: State) -> str | None:
    """Round scoring is work for the workers: nobody acts while it is due."""
    return "scoring" if state.phase == "scoring" else None
