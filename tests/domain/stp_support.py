"""Helpers for the St Patrick tests: cards by short names, states in a given phase, commands."""

from __future__ import annotations

import random
from dataclasses import replace

from domain.cards import Card
from domain.codec import from_json
from domain.decider import Automatic, Deal, Event, fold
from domain.games.st_patrick import GAME
from domain.games.st_patrick.commands import PassRelics, PlayCard, TakeRelics
from domain.games.st_patrick.state import State, deck, initial_state

SUITS = {"c": "clover", "x": "cross", "h": "harp", "s": "snake"}


def card(text: str) -> Card:
    """'c7' -> clover 7 (St Patrick), 'x7' cross 7, 'h7' harp 7, 's9' snake 9."""
    return Card(SUITS[text[0]], int(text[1:]))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(word) for word in text.split())


def step(state: State, command) -> tuple[State, list[Event]]:
    events = GAME.decide(state, command)
    return fold(GAME.evolve, state, events), events


def steps(state: State, commands) -> tuple[State, list[Event]]:
    every: list[Event] = []
    for command in commands:
        state, events = step(state, command)
        every += events
    return state, every


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
    every: list[Event] = []
    for text in texts:
        state, events = step(state, PlayCard(GAME.to_act(state)[0], card(text)))
        every += events
    return state, every


def score(state: State) -> tuple[State, list[Event]]:
    return step(state, Automatic(GAME.automatic(state) or "scoring"))


def command_for(seat: int, action: dict):
    """What the service does: an API action dict -> the game's command, through the codec."""
    fields = {key: value for key, value in action.items() if key != "type"}
    return from_json(GAME.commands[action["type"]], {"seat": seat, **fields})


def visible_pairs(value) -> set[tuple[str, int]]:
    """(suit, rank) of every card written anywhere in a JSON-ready value."""
    found: set[tuple[str, int]] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if type(item) is dict:
            if "suit" in item:
                found.add((item["suit"], item["rank"]))
            else:
                todo.extend(item.values())
        elif type(item) is list:
            todo.extend(item)
    return found
