"""Helpers for the St Patrick tests: cards by short names, states in a given phase, commands."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

from domain.cards import Card
from domain.decider import Automatic, Deal, Event
from domain.games.st_patrick import GAME
from domain.games.st_patrick.commands import PassRelics, TakeRelics
from domain.games.st_patrick.state import State, deck, initial_state
from tests.domain import support

card = support.card_reader({"c": "clover", "x": "cross", "h": "harp", "s": "snake"})
"""'c7' -> clover 7 (St Patrick), 'x7' cross 7, 'h7' harp 7, 's9' snake 9."""
cards = support.cards_reader(card)
step = partial(support.step, GAME)
steps = partial(support.steps, GAME)
command_for = partial(support.command_for, GAME)


def new_game(players: int, **options) -> State:
    return GAME.new_game(players, {**GAME.options, **options})


def shuffled(seed: int) -> tuple[Card, ...]:
    cards_ = list(deck())
    random.Random(seed).shuffle(cards_)
    return tuple(cards_)


def dealt(players: int, the_deck: tuple[Card, ...] | None = None, **fields) -> State:
    """A game just dealt from `the_deck` (default: a fixed shuffle), with `fields` set before
    the deal (e.g. life for a later round, round=1 for round 2)."""
    state = replace(new_game(players), **fields)
    return step(state, Deal(the_deck or shuffled(0), "salt", 0))[0]


def in_relics(hands: list[str], starter: int, **fields) -> State:
    """A relic phase with these hands (the passing done), `starter` to act first."""
    state = initial_state(len(hands))
    return replace(
        state,
        round=1,
        phase="relics",
        hands=tuple(cards(hand) for hand in hands),
        relic_turn=starter,
        **fields,
    )


def hunting(hands: list[str], leader: int, **fields) -> State:
    """A hunt with these hands, `leader` to lead the next trick."""
    state = initial_state(len(hands), fields.pop("first_lead_snake_allowed", True))
    fields = {"round": 1, "phase": "playing", **fields}
    return replace(state, hands=tuple(cards(hand) for hand in hands), leader=leader, **fields)


def take(seat: int, count: int) -> TakeRelics:
    return TakeRelics(seat, count)


def decline(seat: int) -> PassRelics:
    return PassRelics(seat)


def play(state: State, texts: list[str]) -> tuple[State, list[Event]]:
    """Plays the given cards in turn order from the seat to play; returns every event."""
    return support.play_all(GAME, state, [card(text) for text in texts])


def score(state: State) -> tuple[State, list[Event]]:
    return step(state, Automatic(GAME.automatic(state) or "scoring"))
