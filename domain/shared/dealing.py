"""The deal every game makes alike (G2, G4, G5): a shuffled deck in, three kinds of events out.

`DealCommitted` publishes sha256(salt || deck) so anyone can check the deal once `DeckSealed`
(secret until the game ends) shows the deck and the salt; each seat's hand is its own to see.
The event names are stored in the database; the table counts `DealCommitted`s to pick fixed decks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from typing import Any

from domain.kit.cards import Card
from domain.kit.checks import check_seat
from domain.kit.codec import deal_commitment
from domain.kit.decider import Event, IllegalAction, SeatCards
from domain.kit.game_state import S
from domain.shared.tuples import set_at


@dataclass(frozen=True, slots=True)
class DealCommitted(Event):
    """Public. `first_leader` is set by the games that pick one at the deal (G4), else None."""

    round: int
    commitment: str
    first_leader: int | None = field(default=None, kw_only=True)  # stored in this key order
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandDealt(SeatCards):
    """A seat's dealt hand: its own to see."""


@dataclass(frozen=True, slots=True)
class DeckSealed(Event):
    """The whole deck in deal order and the salt: seen by nobody until the game ends."""

    round: int
    deck: tuple[Card, ...]
    salt: str

    def visible_to(self) -> tuple[int, ...] | None:
        return ()

    def redacted(self) -> dict[str, Any]:
        return {"round": self.round}


def checked_deck(deck: Sequence[object], expected: Sequence[Card], what: str) -> tuple[Card, ...]:
    """A deal must be exactly the game's cards (`what` names them), each once (G5), in any
    order."""
    cards = tuple(card for card in deck if isinstance(card, Card))
    if len(cards) != len(deck) or sorted(cards) != sorted(expected):
        raise IllegalAction(f"the deck must be a shuffle of the {len(expected)} {what}")
    return cards


def first_leader(option: int | None, picked: object, players: int) -> int:
    """G4: the game's `first_leader` option wins over the random pick made at the deal."""
    return option if option is not None else check_seat(picked, players)


def deal_events(
    round_number: int,
    deck: tuple[Card, ...],
    salt: str,
    hand_sizes: tuple[int, ...],
    leader: int | None = None,
) -> list[Event]:
    """The commitment, each seat's hand (seat 0 first, from the top of the deck), the sealed
    deck; whatever follows the hands in the deck is the game's to use."""
    committed = DealCommitted(
        round=round_number,
        commitment=deal_commitment(salt, deck),
        first_leader=leader,
        hand_sizes=hand_sizes,
    )
    ends = tuple(accumulate(hand_sizes))
    hands = [HandDealt(s, deck[end - hand_sizes[s] : end]) for s, end in enumerate(ends)]
    return [committed, *hands, DeckSealed(round_number, deck, salt)]


def hand_dealt(state: S, event: HandDealt) -> S:
    """Evolve: the seat's hand is the dealt one."""
    return replace(state, hands=set_at(state.hands, event.seat, event.cards))


def undealt(hands: Sequence[tuple[Card, ...]], deck: tuple[Card, ...]) -> tuple[Card, ...]:
    """What a sealed deck holds after the hands: they come first in deal order."""
    return deck[sum(len(hand) for hand in hands) :]
