"""Ouroboros Trick evolve: records an event in the state; never validates, never raises."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from domain.cards import remove_cards
from domain.decider import Event
from domain.games.ouroboros_trick.events import (
    CardPlayed,
    CardsDiscarded,
    DealCommitted,
    DiscardAwaited,
    GameEnded,
    HandDealt,
    PoolTaken,
    TrickWon,
)
from domain.games.ouroboros_trick.state import (
    LastTrick,
    Outcome,
    PendingDiscard,
    State,
    set_at,
)
from domain.tricks import Play


def evolve(state: State, event: Event) -> State:
    apply = _APPLIERS.get(type(event))
    return apply(state, event) if apply else state


def _deal_committed(state: State, event: DealCommitted) -> State:
    return replace(state, phase="playing", commitment=event.commitment, leader=event.first_leader)


def _hand_dealt(state: State, event: HandDealt) -> State:
    return replace(state, hands=set_at(state.hands, event.seat, event.cards))


def _card_played(state: State, event: CardPlayed) -> State:
    hand = remove_cards(state.hands[event.seat], (event.card,))
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        trick=(*state.trick, Play(event.seat, event.card)),
    )


def _trick_won(state: State, event: TrickWon) -> State:
    pool = state.pools[event.seat] + event.cards
    return replace(
        state,
        pools=set_at(state.pools, event.seat, pool),
        last_trick=LastTrick(event.seat, state.trick, event.discard_count),
        trick=(),
        tricks_played=state.tricks_played + 1,
        leader=event.seat,  # the winner leads next (rulebook 7)
    )


def _cards_discarded(state: State, event: CardsDiscarded) -> State:
    hand = remove_cards(state.hands[event.seat], event.cards)
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        discards=state.discards + event.cards,
        pending=None,
        phase="playing",
    )


def _pool_taken(state: State, event: PoolTaken) -> State:
    hand = state.hands[event.seat] + event.cards
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        pools=set_at(state.pools, event.seat, ()),
    )


def _discard_awaited(state: State, event: DiscardAwaited) -> State:
    return replace(state, phase="discarding", pending=PendingDiscard(event.seat, event.count))


def _game_ended(state: State, event: GameEnded) -> State:
    return replace(
        state, phase="finished", outcome=Outcome(event.winners, event.losers, event.final)
    )


_APPLIERS: dict[type, Callable[[State, Any], State]] = {
    DealCommitted: _deal_committed,
    HandDealt: _hand_dealt,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    CardsDiscarded: _cards_discarded,
    PoolTaken: _pool_taken,
    DiscardAwaited: _discard_awaited,
    GameEnded: _game_ended,
}
