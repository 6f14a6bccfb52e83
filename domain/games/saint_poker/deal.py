"""Saint Poker's deal (P1) and the start of each round (P2)."""

from __future__ import annotations

from domain.games.saint_poker.events import RoundStarted
from domain.games.saint_poker.state import DECK, FUTURE_RIVER_SIZES, HAND_SIZE, ROUNDS, State
from domain.kit.cards import Card
from domain.kit.decider import Deal, Event
from domain.shared.dealing import checked_deck, deal_events


def deal(state: State, command: Deal) -> list[Event]:
    deck = checked_deck(command.deck, DECK, "cards of this game")  # the 52 cards (P1)
    n = state.players
    rest = deck[n * HAND_SIZE :]  # the future river, then the deck (docs/api.md, test decks)
    size = FUTURE_RIVER_SIZES[n]
    dealt = deal_events(1, deck, command.salt, (HAND_SIZE,) * n)
    return [*dealt, start_round(1, rest[:size], rest[size:], size)]


def start_round(
    round_number: int, river: tuple[Card, ...], deck: tuple[Card, ...], size: int
) -> RoundStarted:
    """P2: the future river moves in; a new one is turned unless this is the last round."""
    future = deck[:size] if round_number < ROUNDS else ()
    return RoundStarted(round_number, river, future)
