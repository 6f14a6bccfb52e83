"""Helpers every game's tests share, each taking the game (its `GAME`) first: cards by short
names, commands applied to states, API actions turned into commands, whole bot games."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable

from domain.cards import Card
from domain.codec import from_json, to_json
from domain.decider import Deal, Event, fold
from domain.game_type import GameType


def card_reader(suits: dict[str, str]) -> Callable[[str], Card]:
    """A reader of names like 'r7' or 'y12': the suit by its initial, then the rank."""

    def card(text: str) -> Card:
        return Card(suits[text[0]], int(text[1:]))

    return card


def cards_reader(card: Callable[[str], Card]) -> Callable[[str], tuple[Card, ...]]:
    """A reader of space-separated card names, e.g. 'r1 r2 y3'."""

    def cards(text: str) -> tuple[Card, ...]:
        return tuple(card(word) for word in text.split())

    return cards


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


def visible_cards(value) -> set[Card]:
    """Every card written anywhere in a JSON-ready value."""
    return {Card(suit, rank) for suit, rank in visible_pairs(value)}


def step(game: GameType, state, command) -> tuple[object, list[Event]]:
    events = game.decide(state, command)
    return fold(game.evolve, state, events), events


def steps(game: GameType, state, commands: Iterable) -> tuple[object, list[Event]]:
    every: list[Event] = []
    for command in commands:
        state, events = step(game, state, command)
        every += events
    return state, every


def play_all(game: GameType, state, cards: Iterable[Card]) -> tuple[object, list[Event]]:
    """Plays the given cards in turn order from the seat to play; returns every event."""
    every: list[Event] = []
    for card in cards:
        command = game.commands["play_card"](seat=game.to_act(state)[0], card=card)
        state, events = step(game, state, command)
        every += events
    return state, every


def command_for(game: GameType, seat: int, action: dict):
    """What the service does: an API action dict -> the game's command, through the codec."""
    fields = {key: value for key, value in action.items() if key != "type"}
    return from_json(game.commands[action["type"]], {"seat": seat, **fields})


def dealt(game: GameType, players: int, seed: int, first_leader: int, options: dict):
    """A game just dealt from its deck shuffled with `seed`."""
    state = game.new_game(players, {**game.options, **options})
    deck = list(game.cards_to_deal(state) or ())
    random.Random(seed).shuffle(deck)
    return step(game, state, Deal(tuple(deck), "salt", first_leader))[0]


def play_bot_game(
    game: GameType, players: int, seed: int, levels: list[str]
) -> tuple[object, list[Event]]:
    """A whole game where each seat's bot sees only its own view."""
    rng = random.Random(seed)
    state = game.new_game(players, dict(game.options))
    deck = list(game.cards_to_deal(state) or ())
    rng.shuffle(deck)
    state, events = step(game, state, Deal(tuple(deck), f"salt{seed}", rng.randrange(players)))
    while not game.is_terminal(state):
        seat = rng.choice(game.to_act(state))
        action = game.bots[levels[seat]](game.view(state, seat), rng)
        state, new = step(game, state, command_for(game, seat, action))
        events += new
    return state, events


def survives_storage(game: GameType, event: Event) -> bool:
    """Written as JSON and read back by its type name, the event is the same (and its redacted
    form is JSON too), as the event store does."""
    stored = json.loads(json.dumps(to_json(event)))
    json.dumps(event.redacted())
    return from_json(game.events[type(event).__name__], stored) == event
