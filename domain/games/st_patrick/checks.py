"""Checks every St Patrick command shares: the seat, a count, the cards named."""

from __future__ import annotations

from domain.cards import Card
from domain.decider import IllegalAction
from domain.games.st_patrick.state import State


def check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    return seat


def check_count(count: object, low: int, high: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        raise IllegalAction(f"the count must be from {low} to {high}")
    return count


def check_cards_held(hand: tuple[Card, ...], cards: tuple[object, ...]) -> None:
    # Only the caller's own claims are echoed, so no hidden card can leak here.
    for card in cards:
        if not isinstance(card, Card) or card not in hand:
            raise IllegalAction(f"you do not hold {card}")
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card is named more than once")
