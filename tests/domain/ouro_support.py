"""Helpers for the Ouroboros Trick tests: build states, apply commands, play whole games."""

from __future__ import annotations

import random
from dataclasses import replace

from domain.cards import Card
from domain.codec import from_json
from domain.decider import Deal, Event, fold
from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import Discard, PlayCard
from domain.games.ouroboros_trick.state import State, deck_for, initial_state

SUITS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}


def card(text: str) -> Card:
    """'r7' -> red 7, 'y12' -> yellow 12 (suits by their initial)."""
    return Card(SUITS[text[0]], int(text[1:]))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(word) for word in text.split())


def visible_pairs(value) -> set[tuple[str, int]]:
    """(suit, rank) of every card written anywhere in a JSON-ready value (fast: no Card)."""
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


def step(state: State, command) -> tuple[State, list[Event]]:
    events = GAME.decide(state, command)
    return fold(GAME.evolve, state, events), events


def dealt(players: int, seed: int = 0, first_leader: int = 0, options: dict | None = None) -> State:
    """A game just dealt from a deck shuffled with `seed`."""
    deck = list(deck_for(players))
    random.Random(seed).shuffle(deck)
    state = GAME.new_game(players, {"first_leader": None, **(options or {})})
    return step(state, Deal(tuple(deck), "salt", first_leader))[0]


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


def play(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    return step(state, PlayCard(seat=seat, card=card(text)))


def play_all(state: State, texts: list[str]) -> tuple[State, list[Event]]:
    """Plays the given cards in turn order from the seat to play; returns every event."""
    events: list[Event] = []
    for text in texts:
        state, new = play(state, GAME.to_act(state)[0], text)
        events += new
    return state, events


def discard(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    return step(state, Discard(seat=seat, cards=cards(text)))


def command_for(seat: int, action: dict):
    """What the service does: an API action dict -> the game's command, through the codec."""
    fields = {key: value for key, value in action.items() if key != "type"}
    return from_json(GAME.commands[action["type"]], {"seat": seat, **fields})


def play_bot_game(players: int, seed: int, levels: list[str]) -> tuple[State, list[Event]]:
    """A whole game where each seat's bot sees only its own view."""
    rng = random.Random(seed)
    deck = list(deck_for(players))
    rng.shuffle(deck)
    state = GAME.new_game(players, {"first_leader": None})
    state, events = step(state, Deal(tuple(deck), f"salt{seed}", rng.randrange(players)))
    while not GAME.is_terminal(state):
        seat = rng.choice(GAME.to_act(state))
        action = GAME.bots[levels[seat]](GAME.view(state, seat), rng)
        state, new = step(state, command_for(seat, action))
        events += new
    return state, events
