"""Trick & Snipers: constants (T1), the state folded from events, and questions about it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from domain.cards import Card, build_deck
from domain.tricks import Trick, seat_to_play

SUITS = ("red", "yellow", "green", "blue")
RANKS = tuple(range(1, 13))
HAND_SIZES = {3: 12, 4: 11, 5: 9}
REMOVED_RANKS = {3: (5, 8)}  # T1: with 3 players all 5s and 8s leave the deck
PASS_COUNT = 4
SNIPE_TOTAL = 13
POINT_RANK = 7
POINTS_TO_WIN = 2

T = TypeVar("T")


def deck_for(players: int) -> tuple[Card, ...]:
    removed = REMOVED_RANKS.get(players, ())
    return build_deck(SUITS, (rank for rank in RANKS if rank not in removed))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: (SUITS.index(card.suit), card.rank))


def set_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1 :]


@dataclass(frozen=True, slots=True)
class WonTrick:
    winner: int
    plays: Trick
    point_to: int | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    final: dict[str, dict[str, int]]


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


def is_terminal(state: State) -> bool:
    return state.phase == "finished"


def turn(state: State) -> int | None:
    """The seat to play a card, if a card is awaited."""
    if state.phase != "playing" or state.leader is None:
        return None
    return seat_to_play(state.leader, state.trick, state.players)


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == "passing":
        return tuple(seat for seat, cards in enumerate(state.passed) if cards is None)
    seat = turn(state)
    return () if seat is None else (seat,)


def trick_number(state: State) -> int:
    """1-based number of the trick being played (the last one once the game is over)."""
    return len(state.won) + (0 if is_terminal(state) else 1)
