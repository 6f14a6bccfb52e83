"""Saint Poker's deal (P1) and the start of each round (P2)."""

from __future__ import annotations

from domain.cards import Card
from domain.codec import deal_commitment
from domain.decider import Deal, Event, IllegalAction
from domain.games.saint_poker.events import DealCommitted, DeckSealed, HandDealt, RoundStarted
from domain.games.saint_poker.state import DECK, FUTURE_RIVER_SIZES, HAND_SIZE, ROUNDS, State


def deal(state: State, command: Deal) -> list[Event]:
    if state.phase != "dealing":
        raise IllegalAction("the cards have already been dealt")
    deck = tuple(command.deck)
    # A deal must be exactly the 52 cards, each once (G5, P1), in any order.
    if not all(isinstance(card, Card) for card in deck) or sorted(deck) != sorted(DECK):
        raise IllegalAction(f"the deck must be a shuffle of the {len(DECK)} cards of this game")
    n = state.players
    hands = [HandDealt(s, deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(n)]
    committed = DealCommitted(
        round=1, commitment=deal_commitment(command.salt, deck), hand_sizes=(HAND_SIZE,) * n
    )
    rest = deck[n * HAND_SIZE :]  # the future river, then the deck (API.md, test decks)
    size = FUTURE_RIVER_SIZES[n]
    return [
        committed,
        *hands,
        DeckSealed(1, deck, command.salt),
        start_round(1, rest[:size], rest[size:], size),
    ]


def start_round(
    round_number: int, river: tuple[Card, ...], deck: tuple[Card, ...], size: int
) -> RoundStarted:
    """P2: the future river moves in; a new one is turned unless this is the last round."""
    future = deck[:size] if round_number < ROUNDS else ()
    return RoundStarted(round_number, river, future)
