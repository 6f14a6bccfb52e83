"""Ouroboros Trick: constants (O1), the state folded from events, and questions about it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from domain.kit.cards import Card, build_deck, sort_by_suit
from domain.kit.game_state import Outcome
from domain.shared.tricks import Trick
from domain.shared.tricks import card_turn as turn

SUITS = ("red", "yellow", "green", "blue")
TOP_RANK = {3: 9, 4: 12, 5: 15}  # O1: the deck grows with the table
HAND_SIZE = 12  # O1: every player gets 12 cards; nothing is left over


def deck_for(players: int) -> tuple[Card, ...]:
    return build_deck(SUITS, range(1, TOP_RANK[players] + 1))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sort_by_suit(cards, SUITS)


@dataclass(frozen=True, slots=True)
class PendingDiscard:
    """O4: the trick winner must still choose `count` cards of their hand to discard."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class LastTrick:
    winner: int
    plays: Trick
    lowest: int


@dataclass(frozen=True, slots=True)
class State:
    players: int
    first_leader_option: int | None = None
    phase: str = "dealing"  # dealing | playing | discarding | finished
    round: int = 1
    commitment: str | None = None
    hands: tuple[tuple[Card, ...], ...] = ()
    pools: tuple[tuple[Card, ...], ...] = ()  # face down; only the owner sees one (O6)
    discards: tuple[Card, ...] = ()  # the discard pile, bottom first: only its top is shown
    leader: int | None = None
    trick: Trick = ()
    tricks_played: int = 0
    last_trick: LastTrick | None = None
    pending: PendingDiscard | None = None
    outcome: Outcome | None = field(default=None)


def initial_state(players: int, first_leader: int | None) -> State:
    return State(
        players=players,
        first_leader_option=first_leader,
        hands=((),) * players,
        pools=((),) * players,
    )


def to_act(state: State) -> tuple[int, ...]:
    if state.phase == "discarding" and state.pending is not None:
        return (state.pending.seat,)
    seat = turn(state)
    return () if seat is None else (seat,)


def trick_number(state: State) -> int:
    """1-based number of the trick being played or processed (the last one once over)."""
    return max(1, state.tricks_played + (1 if state.phase == "playing" else 0))
