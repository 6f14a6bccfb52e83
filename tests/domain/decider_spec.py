"""Rules tests in the Decider's own form: given these events, when this command, then these
events (or then refused). A game's past is its events, so a test states it as events too, and
never builds a state by hand: the state is whatever the game's own `evolve` folds them into.

    given(GAME, dealt(hands), played(0, "r3")).when(PlayCard(1, card("r5"))).then(...)
    given(GAME, ...).when(PlayCard(1, card("b12"))).then_refused(IllegalAction, "follow suit")

Each game's support module binds GAME (`given = support.GameHelpers(GAME, card).given`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from domain.kit.decider import Command, DomainError, Event, IllegalAction, fold
from domain.kit.game_type import GameType
from domain.shared.dealing import DealCommitted

Past = Event | Iterable[Event]


def given(
    game: GameType, *past: Past, players: int | None = None, options: Mapping | None = None
) -> Given:
    """A game of `players` seats (by default: as many as the first deal dealt hands to) with
    `options`, where these events (or lists of them, in order) have happened."""
    history = tuple(_flat(past))
    seats = players or _dealt_seats(history)
    return Given(game, history, seats, dict(options or {}))


@dataclass(frozen=True)
class Given:
    game: GameType
    history: tuple[Event, ...]
    players: int
    options: dict = field(default_factory=dict)

    @cached_property
    def state(self) -> Any:
        return fold(self.game.evolve, self.game.new_game(self.players, self.options), self.history)

    def when(self, command: Command) -> When:
        try:
            return When(self, self.game.decide(self.state, command), None)
        except DomainError as refusal:
            return When(self, [], refusal)

    def when_all(self, *commands: Command) -> When:
        """These commands in turn: then's events are all they decided, the first refusal ends."""
        decided: list[Event] = []
        for command in commands:
            step = Given(self.game, self.history + tuple(decided), self.players, self.options)
            done = step.when(command)
            if done.refusal is not None:
                return When(self, decided, done.refusal)
            decided += done.events
        return When(self, decided, None)


@dataclass(frozen=True)
class When:
    given: Given
    events: list[Event]
    refusal: DomainError | None

    def then(self, *expected: Event) -> When:
        """Exactly these events, in this order."""
        assert self.refusal is None, f"refused: {self.refusal.message}"
        assert self.events == list(expected)
        return self

    def then_ends_with(self, *expected: Event) -> When:
        """The last events are these (for a command whose first events a test does not name)."""
        assert self.refusal is None, f"refused: {self.refusal.message}"
        assert self.events[-len(expected) :] == list(expected), self.events
        return self

    def then_refused(self, error: type[DomainError] = IllegalAction, match: str = "") -> str:
        """Refused with this error, its message matching `match`; the message, to test more."""
        assert self.refusal is not None, f"decided {self.events}"
        assert isinstance(self.refusal, error), repr(self.refusal)
        assert re.search(match, self.refusal.message), self.refusal.message
        return self.refusal.message

    @cached_property
    def state(self) -> Any:
        """The state once the decided events are folded in."""
        assert self.refusal is None, f"refused: {self.refusal.message}"
        return fold(self.given.game.evolve, self.given.state, self.events)

    @property
    def past(self) -> Given:
        """The given events and these: what a next command is decided upon."""
        before = self.given
        history = before.history + tuple(self.events)
        return Given(before.game, history, before.players, before.options)

    def when(self, command: Command) -> When:
        """And then, with these events in the past, another command."""
        return self.past.when(command)

    def when_all(self, *commands: Command) -> When:
        return self.past.when_all(*commands)


def _flat(past: Iterable[Past]) -> Iterable[Event]:
    for item in past:
        if isinstance(item, Event):
            yield item
        else:
            yield from item


def _dealt_seats(history: tuple[Event, ...]) -> int:
    deal = next((event for event in history if isinstance(event, DealCommitted)), None)
    assert deal is not None, "say how many players there are, or give a deal"
    return len(deal.hand_sizes)
