"""Helpers every game's tests share, each taking the game (its `GAME`) first: cards by short
names, deals as events, API actions turned into commands, whole bot games. `GameHelpers` binds
them to one game, so that a game's support module (ouro_support, tns_support, ...) holds only
what is that game's own."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from domain.kit.cards import Card
from domain.kit.codec import from_json, to_json
from domain.kit.decider import Deal, Event, fold
from domain.kit.game_type import GameType
from domain.shared.dealing import deal_events
from domain.shared.tricks import PlayCard
from tests.domain import decider_spec

COLOURS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
"""The four colours of the Ouroboros and Trick & Snipers decks, by their initials."""


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


def deal_of(
    hands: Sequence[tuple[Card, ...]],
    rest: tuple[Card, ...] = (),
    leader: int | None = None,
    round_number: int = 1,
) -> list[Event]:
    """The events of a deal that gave each seat these cards (seat 0 first) and left `rest` in
    the deck: what domain.shared.dealing makes of a deck in that order."""
    deck = tuple(card for hand in hands for card in hand) + rest
    return deal_events(round_number, deck, "salt", tuple(len(hand) for hand in hands), leader)


def shuffled_deal(game: GameType, players: int, seed: int, first_leader: int = 0) -> list[Event]:
    """The events the game decides for a deal of its deck shuffled with `seed`."""
    state = game.new_game(players, {})
    deck = list(game.cards_to_deal(state) or ())
    random.Random(seed).shuffle(deck)
    return game.decide(state, Deal(tuple(deck), "salt", first_leader))


def step(game: GameType, state, command) -> tuple[object, list[Event]]:
    events = game.decide(state, command)
    return fold(game.evolve, state, events), events


def command_for(game: GameType, seat: int, action: dict):
    """What the service does: an API action dict -> the game's command, through the codec."""
    fields = {key: value for key, value in action.items() if key != "type"}
    return from_json(game.commands[action["type"]], {"seat": seat, **fields})


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


def for_each_seed(seeds: Iterable[int], play: Callable[[int], object]) -> None:
    """A game played per seed (deterministic, unlike a drawn seed): a failure names its seed,
    so that game can be replayed alone."""
    for seed in seeds:
        try:
            play(seed)
        except Exception as error:
            error.add_note(f"seed {seed}")
            raise


def survives_storage(game: GameType, event: Event) -> bool:
    """Written as JSON and read back by its type name, the event is the same (and its redacted
    form is JSON too), as the event store does."""
    stored = json.loads(json.dumps(to_json(event)))
    json.dumps(event.redacted())
    return from_json(game.events[type(event).__name__], stored) == event


class GameHelpers:
    """The helpers above bound to one game and its way of naming cards: each game's support
    module takes the ones it uses (`card, cards = OURO.card, OURO.cards`) and adds its own."""

    def __init__(self, game: GameType, card: Callable[[str], Card]) -> None:
        self.game = game
        self.card = card
        self.cards = cards_reader(card)

    def given(
        self, *past: decider_spec.Past, players: int | None = None, options: Mapping | None = None
    ) -> decider_spec.Given:
        return decider_spec.given(self.game, *past, players=players, options=options)

    def command_for(self, seat: int, action: dict):
        return command_for(self.game, seat, action)

    def play_bot_game(self, players: int, seed: int, levels: list[str]):
        return play_bot_game(self.game, players, seed, levels)

    def deal(self, players: int, seed: int = 0, first_leader: int = 0) -> list[Event]:
        """The events of a deal of the deck shuffled with `seed`."""
        return shuffled_deal(self.game, players, seed, first_leader)

    def play(self, seat: int, text: str) -> PlayCard:
        return PlayCard(seat, self.card(text))

    @staticmethod
    def in_turn(played: Callable[[int, str], Event], texts: str, leader: int) -> list[Event]:
        """These cards played at three seats, one each in turn from `leader` on."""
        return [played((leader + i) % 3, text) for i, text in enumerate(texts.split())]
