"""Helpers for the Saint Poker tests: cards by name, fixed decks, states, whole rounds."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

from domain.cards import Card
from domain.decider import Automatic, Deal, Event
from domain.games.saint_poker import GAME
from domain.games.saint_poker.events import CommitRiverCard, PickUp, RevealCards
from domain.games.saint_poker.state import DECK, FUTURE_RIVER_SIZES, HAND_SIZE, State
from tests.domain import support

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANKS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def card(text: str) -> Card:
    """'As' -> ace of spades, 'Td' -> ten of diamonds, '7h' -> seven of hearts."""
    rank = RANKS.get(text[:-1]) or int(text[:-1])
    return Card(SUITS[text[-1]], rank)


cards = support.cards_reader(card)


def name_of(c: Card) -> str:
    """The other way round: ace of spades -> 'As'."""
    letters = {rank: letter for letter, rank in RANKS.items()}
    return f"{letters.get(c.rank, c.rank)}{c.suit[0]}"


def fixed_deck(hands: list[str], future_river: str = "", deck: str = "") -> tuple[Card, ...]:
    """A whole deck in deal order: each hand filled up to 10 with unused cards (lowest first),
    then the first future river, then the given deck cards, then everything else."""
    named = [cards(hand) for hand in hands] + [cards(future_river), cards(deck)]
    used = {c for group in named for c in group}
    spare = [c for c in sorted(DECK, key=lambda c: (c.rank, c.suit)) if c not in used]
    order: list[Card] = []
    for hand in named[: len(hands)]:
        fill = HAND_SIZE - len(hand)
        order += [*hand, *spare[:fill]]
        spare = spare[fill:]
    order += [*named[-2], *named[-1], *spare]
    assert len(order) == len(DECK) == len(set(order))
    assert len(named[-2]) in (0, FUTURE_RIVER_SIZES[len(hands)])
    return tuple(order)


step = partial(support.step, GAME)
command_for = partial(support.command_for, GAME)


def deal(players: int, deck: tuple[Card, ...]) -> tuple[State, list[Event]]:
    return step(GAME.new_game(players, {}), Deal(deck, "salt", 0))


def dealt(players: int, seed: int = 0) -> State:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deal(players, tuple(deck))[0]


def commit_all(state: State, texts: list[str]) -> tuple[State, list[Event]]:
    return support.steps(GAME, state, (CommitRiverCard(s, card(t)) for s, t in enumerate(texts)))


def reveal_all(state: State, texts: list[str]) -> tuple[State, list[Event]]:
    return support.steps(GAME, state, (RevealCards(s, cards(t)) for s, t in enumerate(texts)))


def score(state: State) -> tuple[State, list[Event]]:
    return step(state, Automatic("scoring"))


def pick_in_order(state: State, texts: list[str]) -> tuple[State, list[Event]]:
    """Each card picked up by the seat whose turn it is."""
    events: list[Event] = []
    for text in texts:
        state, new = step(state, PickUp(GAME.to_act(state)[0], card(text)))
        events += new
    return state, events


def scoring_state(round_number: int, river: str, revealed: list[str], points=None) -> State:
    """A round waiting for its scoring, with the given river and revealed cards."""
    players = len(revealed)
    state = GAME.new_game(players, {})
    return replace(
        state,
        phase="scoring",
        round=round_number,
        river=cards(river),
        revealed=tuple(cards(text) for text in revealed),
        points=tuple(points or (0,) * players),
    )
