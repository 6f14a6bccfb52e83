"""Trick & Snipers evolve: records an event in the state; never validates, never raises."""

from __future__ import annotations

from dataclasses import replace

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
from domain.games.trick_and_snipers.state import State, WonTrick
from domain.kit.decider import Event
from domain.kit.dispatch import Applier, evolver
from domain.kit.outcome import game_ended
from domain.shared.dealing import hand_dealt, undealt
from domain.shared.passing import cards_passed
from domain.shared.tricks import card_played
from domain.shared.tuples import set_at


def _deal_committed(state: State, event: DealCommitted) -> State:
    return replace(state, phase="passing", commitment=event.commitment, leader=event.first_leader)


def _deck_sealed(state: State, event: DeckSealed) -> State:
    # What follows the hands in the deck is the hidden left-over pile.
    return replace(state, leftover=undealt(state.hands, event.deck))


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
    played = card_played(state, event.seat, event.card)
    return replace(played, last_sniper=event.seat if event.snipe else state.last_sniper)


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


_APPLIERS: dict[type[Event], Applier[State]] = {
    DealCommitted: _deal_committed,
    HandDealt: hand_dealt,
    DeckSealed: _deck_sealed,
    CardsPassed: cards_passed,
    CardsReceived: _cards_received,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    GameEnded: game_ended,
}

evolve = evolver(_APPLIERS)
