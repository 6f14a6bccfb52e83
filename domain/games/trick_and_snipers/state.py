"""Trick & Snipers: constants (T1), the state folded from events, and questions about it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from domain.kit.cards import Card, build_deck, sort_by_suit
from domain.kit.game_state import Outcome, is_finished
from domain.shared.tricks import Trick
from domain.shared.tricks import card_turn as turn

SUITS = ("red", "yellow", "green", "blue")
RANKS = tuple(range(1, 13))
HAND_SIZES = {3: 12, 4: 11, 5: 9}
REMOVED_RANKS = {3: (5, 8)}  # T1: with 3 players all 5s and 8s leave the deck
PASS_COUNT = 4
SNIPE_TOTAL = 13
POINT_RANK = 7
POINTS_TO_WIN = 2


def deck_for(players: int) -> tuple[Card, ...]:
    removed = REMOVED_RANKS.get(players, ())
    return build_deck(SUITS, (rank for rank in RANKS if rank not in removed))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sort_by_suit(cards, SUITS)


@dataclass(frozen=True, slots=True)
class WonTrick:
    winner: int
    plays: Trick
    point_to: int | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class State:
    players: int
    first_leader_option: int | None = None
    phase: str = "dealing"  # dealing | passing | playing | finished
    round: int = 1
    commitment: str | None = None
    hands: tuple[tuple[Card, ...], ...] = ()
    leftover: tuple[Card, ...] = ()
    passed: tuple[tuple[Card, ...] | None, ...] = ()  # each seat's choice, once made (G3)
    received: tuple[tuple[Card, ...] | None, ...] = ()
    leader: int | None = None
    trick: Trick = ()
    last_sniper: int | None = None  # T5: the last snipe of the current trick takes the point
    victory_points: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    won: tuple[WonTrick, ...] = ()
    outcome: Outcome | None = field(default=None)


def initial_state(players: int, first_leader: int | None) -> State:
    empty = (None,) * players
    zeros = (0,) * players
    return State(
        players=players,
        first_leader_option=first_leader,
        hands=((),) * players,
        passed=empty,
        received=empty,
        victory_points=zeros,
        tricks_won=zeros,
    )


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == "passing":
        return tuple(seat for seat, cards in enumerate(state.passed) if cards is None)
    seat = turn(state)
    return () if seat is None else (seat,)


def trick_number(state: State) -> int:
    """1-based number of the trick being played (the last one once the game is over)."""
    return len(state.won) + (0 if is_finished(state) else 1)
