"""Trick & Snipers evolve: records an event in the state; never validates, never raises."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from domain.cards import remove_cards
from domain.decider import Event
from domain.games.trick_and_snipers.events import (
    CardPlayed,
    CardsPassed,
    CardsReceived,
    DealCommitted,
    DeckSealed,
    GameEnded,
    HandDealt,
    TrickWon,
)
from domain.games.trick_and_snipers.state import Outcome, State, WonTrick, set_at
from domain.tricks import Play


def evolve(state: State, event: Event) -> State:
    apply = _APPLIERS.get(type(event))
    return apply(state, event) if apply else state


def _deal_committed(state: State, event: DealCommitted) -> State:
    return replace(state, phase="passing", commitment=event.commitment, leader=event.first_leader)


def _hand_dealt(state: State, event: HandDealt) -> State:
    return replace(state, hands=set_at(state.hands, event.seat, event.cards))


def _deck_sealed(state: State, event: DeckSealed) -> State:
    # The hands come first in deal order; what follows them is the hidden left-over pile.
    dealt = sum(len(hand) for hand in state.hands)
    return replace(state, leftover=event.deck[dealt:])


def _cards_passed(state: State, event: CardsPassed) -> State:
    hand = remove_cards(state.hands[event.seat], event.cards)
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        passed=set_at(state.passed, event.seat, event.cards),
    )


def _cards_received(state: State, event: CardsReceived) -> State:
    hand = state.hands[event.seat] + event.cards
    received = set_at(state.received, event.seat, event.cards)
    everyone = all(cards is not None for cards in received)
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        received=received,
        phase="playing" if everyone else state.phase,
    )


def _card_played(state: State, event: CardPlayed) -> State:
    hand = remove_cards(state.hands[event.seat], (event.card,))
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        trick=(*state.trick, Play(event.seat, event.card)),
        last_sniper=event.seat if event.snipe else state.last_sniper,
    )


def _trick_won(state: State, event: TrickWon) -> State:
    points = state.victory_points
    if event.point_to is not None:
        points = set_at(points, event.point_to, points[event.point_to] + 1)
    won = WonTrick(event.seat, state.trick, event.point_to, event.face_up)
    return replace(
        state,
        victory_points=points,
        tricks_won=set_at(state.tricks_won, event.seat, state.tricks_won[event.seat] + 1),
        won=(*state.won, won),
        trick=(),
        last_sniper=None,
        leader=event.seat,  # T3: the winner leads next
    )


def _game_ended(state: State, event: GameEnded) -> State:
    return replace(
        state, phase="finished", outcome=Outcome(event.winners, event.losers, event.final)
    )


_APPLIERS: dict[type, Callable[[State, Any], State]] = {
    DealCommitted: _deal_committed,
    HandDealt: _hand_dealt,
    DeckSealed: _deck_sealed,
    CardsPassed: _cards_passed,
    CardsReceived: _cards_received,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    GameEnded: _game_ended,
}
