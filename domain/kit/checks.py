"""Checks a command's fields share across games: the seat, a count, the cards named.

Only the caller's own claims are echoed in the messages, so no hidden card can leak here.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.kit.cards import Card
from domain.kit.decider import IllegalAction


def check_seat(seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    return seat


def check_count(count: object, low: int, high: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
        raise IllegalAction(f"the count must be from {low} to {high}")
    return count


def check_held(hand: tuple[Card, ...], cards: tuple[object, ...]) -> tuple[Card, ...]:
    """Every card named is in the hand, and none is named twice; returns them, as cards."""
    held: list[Card] = []
    for card in cards:
        if not isinstance(card, Card) or card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        held.append(card)
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card is named more than once")
    return tuple(held)


def check_secret_choice(
    choices: Sequence[object | None],
    hands: Sequence[tuple[Card, ...]],
    seat: object,
    cards: Sequence[object],
    count: int,
    verb: str,
) -> tuple[int, tuple[Card, ...]]:
    """A seat's part of a simultaneous choice (G3): its first and only one, of exactly `count`
    cards it holds. Returns the seat and the cards."""
    seat = check_seat(seat, len(choices))
    if choices[seat] is not None:
        raise IllegalAction(f"you have already chosen the cards to {verb}; it cannot be changed")
    chosen = tuple(cards)
    if len(chosen) != count:
        plural = "card" if count == 1 else "cards"
        raise IllegalAction(f"{verb} exactly {count} {plural}, not {len(chosen)}")
    return seat, check_held(hands[seat], chosen)
