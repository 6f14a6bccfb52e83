"""Ouroboros Trick evolve: records an event in the state; never validates, never raises."""

from __future__ import annotations

from dataclasses import replace

from domain.games.ouroboros_trick.events import (
    CardPlayed,
    CardsDiscarded,
    DealCommitted,
    DeckSealed,
    DiscardAwaited,
    GameEnded,
    HandDealt,
    PoolTaken,
    TrickWon,
)
from domain.games.ouroboros_trick.state import LastTrick, PendingDiscard, State
from domain.kit.cards import remove_cards
from domain.kit.decider import Event
from domain.kit.dispatch import Applier, evolver
from domain.kit.outcome import game_ended
from domain.shared.dealing import hand_dealt
from domain.shared.tricks import card_played
from domain.shared.tuples import set_at


def _deal_committed(state: State, event: DealCommitted) -> State:
    return replace(state, phase="playing", commitment=event.commitment, leader=event.first_leader)


def _card_played(state: State, event: CardPlayed) -> State:
    return card_played(state, event.seat, event.card)


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


_APPLIERS: dict[type[Event], Applier[State]] = {
    DealCommitted: _deal_committed,
    HandDealt: hand_dealt,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    CardsDiscarded: _cards_discarded,
    PoolTaken: _pool_taken,
    DiscardAwaited: _discard_awaited,
    GameEnded: game_ended,
}

evolve = evolver(_APPLIERS, ignored=(DeckSealed,))  # O1: no card is left undealt
