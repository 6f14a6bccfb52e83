"""The frame of every game's decide and evolve: the checks that come before any rule, and the
choice of the function that handles a command or records an event, by its class."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic

from domain.kit.decider import Command, Deal, Event, GameFinished, GameNotStarted, IllegalAction
from domain.kit.game_state import DEALING, FINISHED, S

Handler = Callable[[S, Any], list[Event]]
"""A command's handler: (the state, a command of the class it handles) -> the events."""
Applier = Callable[[S, Any], S]
"""An event's applier: (the state, an event of the class it records) -> the next state."""


def decide_command(
    state: S,
    command: Command,
    game_name: str,
    deal: Callable[[S, Deal], list[Event]],
    handlers: Mapping[type[Command], Handler[S]],
) -> list[Event]:
    """Over is over; a deal only while the game waits for one, and nothing else until then;
    otherwise the command's handler (its class is the API action's)."""
    if state.phase == FINISHED:
        raise GameFinished("the game is over")
    if isinstance(command, Deal):
        if state.phase != DEALING:
            raise IllegalAction("the cards have already been dealt")
        return deal(state, command)
    if state.phase == DEALING:
        raise GameNotStarted("the cards have not been dealt yet")
    handler = handlers.get(type(command))
    if handler is None:
        raise IllegalAction(f"{type(command).__name__} is not an action of {game_name}")
    return handler(state, command)


class UnknownEvent(TypeError):
    """An event a game neither records nor declares ignored: a bug, never a player's doing."""


class Evolver(Generic[S]):
    """A game's evolve: each event recorded by the applier of its class. An event the game
    declares `ignored` changes nothing (e.g. DeckSealed where the deck leaves no trace); any
    other raises UnknownEvent, so a forgotten applier cannot pass for a rule."""

    __slots__ = ("appliers", "ignored")

    def __init__(
        self,
        appliers: Mapping[type[Event], Applier[S]],
        ignored: Iterable[type[Event]] = (),
    ) -> None:
        self.appliers = dict(appliers)
        self.ignored = frozenset(ignored)

    @property
    def known(self) -> frozenset[type[Event]]:
        return frozenset(self.appliers) | self.ignored

    def __call__(self, state: S, event: Event) -> S:
        apply = self.appliers.get(type(event))
        if apply is not None:
            return apply(state, event)
        if type(event) in self.ignored:
            return state
        raise UnknownEvent(f"{type(event).__name__} is not an event of this game")


def evolver(
    appliers: Mapping[type[Event], Applier[S]],
    ignored: Iterable[type[Event]] = (),
) -> Evolver[S]:
    return Evolver(appliers, ignored)
