"""Saint Poker evolve: records an event in the state; never validates, never raises."""

from __future__ import annotations

from dataclasses import replace

from domain.games.saint_poker.events import (
    CardPickedUp,
    CardsRevealed,
    DealCommitted,
    DeckSealed,
    GameEnded,
    HandDealt,
    RevealChosen,
    RiverCardCommitted,
    RiverCompleted,
    RoundEnded,
    RoundScored,
    RoundStarted,
)
from domain.games.saint_poker.state import State
from domain.kit.cards import Card, remove_cards
from domain.kit.decider import Event
from domain.kit.dispatch import Applier, evolver
from domain.kit.outcome import game_ended
from domain.shared.dealing import hand_dealt, undealt
from domain.shared.tuples import set_at


def _deal_committed(state: State, event: DealCommitted) -> State:
    return replace(state, commitment=event.commitment)


def _deck_sealed(state: State, event: DeckSealed) -> State:
    # The future river and the deck follow the hands.
    return replace(state, deck=undealt(state.hands, event.deck))


def _round_started(state: State, event: RoundStarted) -> State:
    return replace(
        state,
        phase="committing",
        round=event.round,
        river=event.river,
        future_river=event.future_river,
        deck=remove_cards(state.deck, event.river + event.future_river),
    )


def _river_card_committed(state: State, event: RiverCardCommitted) -> State:
    return replace(
        state,
        hands=set_at(state.hands, event.seat, remove_cards(state.hands[event.seat], [event.card])),
        committed=set_at(state.committed, event.seat, event.card),
    )


def _river_completed(state: State, event: RiverCompleted) -> State:
    return replace(
        state,
        phase="revealing",
        river=state.river + event.cards,
        committed=(None,) * state.players,
    )


def _reveal_chosen(state: State, event: RevealChosen) -> State:
    return replace(
        state,
        hands=set_at(state.hands, event.seat, remove_cards(state.hands[event.seat], event.cards)),
        chosen=set_at(state.chosen, event.seat, event.cards),
    )


def _cards_revealed(state: State, event: CardsRevealed) -> State:
    return replace(state, phase="scoring", revealed=event.cards, chosen=(None,) * state.players)


def _round_scored(state: State, event: RoundScored) -> State:
    points = tuple(total + new for total, new in zip(state.points, event.points, strict=True))
    return replace(
        state,
        phase="pickup" if event.pickup_order else state.phase,
        points=points,
        ranking=event.ranking,
        ranked_round=event.round,
        pickup_order=event.pickup_order,
        picks_made=0,
    )


def _card_picked_up(state: State, event: CardPickedUp) -> State:
    return replace(
        state,
        hands=set_at(state.hands, event.seat, state.hands[event.seat] + (event.card,)),
        river=_without(state.river, event.card),
        revealed=tuple(_without(cards, event.card) for cards in state.revealed),
        picks_made=state.picks_made + 1,
    )


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    # Most piles do not hold the card: leave them as they are (a pickup is the commonest event).
    return tuple(c for c in cards if c != card) if card in cards else cards


def _round_ended(state: State, event: RoundEnded) -> State:
    return replace(
        state,
        river=(),
        revealed=((),) * state.players,
        discarded=state.discarded + event.discarded,
        pickup_order=(),
        picks_made=0,
    )


_APPLIERS: dict[type[Event], Applier[State]] = {
    DealCommitted: _deal_committed,
    HandDealt: hand_dealt,
    DeckSealed: _deck_sealed,
    RoundStarted: _round_started,
    RiverCardCommitted: _river_card_committed,
    RiverCompleted: _river_completed,
    RevealChosen: _reveal_chosen,
    CardsRevealed: _cards_revealed,
    RoundScored: _round_scored,
    CardPickedUp: _card_picked_up,
    RoundEnded: _round_ended,
    GameEnded: game_ended,
}

evolve = evolver(_APPLIERS)
