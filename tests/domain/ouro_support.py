"""Helpers for the Ouroboros Trick tests: build states, apply commands, play whole games."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from domain.decider import Event
from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import Discard
from domain.games.ouroboros_trick.state import State, initial_state
from tests.domain import support

card = support.card_reader({"r": "red", "y": "yellow", "g": "green", "b": "blue"})
"""'r7' -> red 7, 'y12' -> yellow 12 (suits by their initial)."""
cards = support.cards_reader(card)
step = partial(support.step, GAME)
command_for = partial(support.command_for, GAME)
play_bot_game = partial(support.play_bot_game, GAME)


def dealt(players: int, seed: int = 0, first_leader: int = 0, options: dict | None = None) -> State:
    """A game just dealt from a deck shuffled with `seed`."""
    return support.dealt(GAME, players, seed, first_leader, options or {})


def playing(hands: list[str], leader: int = 0, pools: list[str] | None = None, **fields) -> State:
    """A game in its play phase with the given hands and pools, e.g. ['r1 r2', 'y3 y4']."""
    state = initial_state(len(hands), None)
    return replace(
        state,
        phase="playing",
        hands=tuple(cards(hand) for hand in hands),
        pools=tuple(cards(pool) for pool in (pools or [""] * len(hands))),
        leader=leader,
        **fields,
    )


def play_all(state: State, texts: list[str]) -> tuple[State, list[Event]]:
    """Plays the given cards in turn order from the seat to play; returns every event."""
    return support.play_all(GAME, state, [card(text) for text in texts])


def discard(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    return step(state, Discard(seat=seat, cards=cards(text)))
