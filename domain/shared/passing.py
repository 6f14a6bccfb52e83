"""Passing cards to the left as a simultaneous choice (G3), as Trick & Snipers (T2) and
St Patrick (S3) do: each seat chooses in secret (`PassCards`); the last choice makes them all
arrive."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from domain.kit.cards import Card, cards_json, remove_cards
from domain.kit.checks import check_secret_choice
from domain.kit.decider import Command, Event, SeatCards, fold
from domain.kit.game_state import GameState
from domain.shared.tuples import set_at

Choice = tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class PassCards(Command):
    """A seat's secret choice of the cards it passes (the API action `pass_cards`)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsPassed(SeatCards):
    """G3: others learn only that the seat has chosen, and how many cards."""


@dataclass(frozen=True, slots=True)
class CardsHanded(Event):
    """Cards `seat` got from `from_seat`: known to both of them, to nobody else."""

    seat: int
    from_seat: int
    cards: tuple[Card, ...]

    def visible_to(self) -> tuple[int, ...] | None:
        return (self.seat, self.from_seat)

    def redacted(self) -> dict[str, Any]:
        return {"seat": self.seat, "from_seat": self.from_seat, "count": len(self.cards)}


@dataclass(frozen=True, slots=True)
class CardsReceived(CardsHanded):
    """The passed cards `seat` got from `from_seat`."""


class PassingState(GameState, Protocol):
    """Each seat's choice once made (None until then) and what it received (likewise)."""

    @property
    def passed(self) -> tuple[Choice, ...]: ...

    @property
    def received(self) -> tuple[Choice, ...]: ...


P = TypeVar("P", bound=PassingState)


def pass_cards(
    state: P, seat: object, cards: Sequence[object], count: int, evolve: Callable[[P, Event], P]
) -> list[Event]:
    """Decide a seat's pass: its secret choice of `count` cards it holds (G3); the last choice
    makes every choice arrive at once (`passed_left`). The choices so far are read from the
    state the choice leaves, as the game's `evolve` records them."""
    seat, chosen = check_secret_choice(state.passed, state.hands, seat, cards, count, "pass")
    events: list[Event] = [CardsPassed(seat, chosen)]
    passed = fold(evolve, state, events).passed
    if all(choice is not None for choice in passed):
        events += passed_left(passed)
    return events


def passed_left(passed: Sequence[Choice]) -> list[CardsReceived]:
    """Every seat's choice (all made) arrives at once with the next seat: to the left (G1)."""
    n = len(passed)
    return [CardsReceived(s, (s - 1) % n, passed[(s - 1) % n] or ()) for s in range(n)]


def cards_passed(state: P, event: CardsPassed) -> P:
    """Evolve: the chosen cards leave the hand and wait as the seat's choice (`passed`)."""
    hand = remove_cards(state.hands[event.seat], event.cards)
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        passed=set_at(state.passed, event.seat, event.cards),
    )


def choices_json(state: PassingState, seat: int) -> dict[str, list[dict[str, Any]] | None]:
    """For the seat's own view: what it passed and what it received (None until then)."""
    passed, received = state.passed[seat], state.received[seat]
    return {
        "passed_cards": None if passed is None else cards_json(passed),
        "received_cards": None if received is None else cards_json(received),
    }
