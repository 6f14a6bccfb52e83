"""The frame of every game's decide and evolve: the checks that come before any rule, and the
choice of the function that handles a command or records an event, by its class."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.decider import Command, Deal, Event, GameFinished, GameNotStarted, IllegalAction

Handler = Callable[[Any, Any], list[Event]]


def decide_command(
    state: Any,
    command: Command,
    game_name: str,
    deal: Handler,
    handlers: Mapping[type, Handler],
) -> list[Event]:
    """Over is over; a deal only while the game waits for one, and nothing else until then;
    otherwise the command's handler (its class is the API action's)."""
    if state.phase == "finished":
        raise GameFinished("the game is over")
    if isinstance(command, Deal):
        if state.phase != "dealing":
            raise IllegalAction("the cards have already been dealt")
        return deal(state, command)
    if state.phase == "dealing":
        raise GameNotStarted("the cards have not been dealt yet")
    handler = handlers.get(type(command))
    if handler is None:
        raise IllegalAction(f"{type(command).__name__} is not an action of {game_name}")
    return handler(state, command)


def evolver(appliers: Mapping[type, Callable[[Any, Any], Any]]) -> Callable[[Any, Event], Any]:
    """An evolve that records each event with the applier of its class; others change nothing."""

    def evolve(state: Any, event: Event) -> Any:
        apply = appliers.get(type(event))
        return apply(state, event) if apply else state

    return evolve
