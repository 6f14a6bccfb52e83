"""St Patrick evolve: records an event in the state; never validates, never raises."""

from __future__ import annotations

from dataclasses import replace

from domain.games.st_patrick import events as ev
from domain.games.st_patrick.state import RELICS, State, bites_of, initial_state
from domain.kit.decider import Event
from domain.kit.dispatch import Applier, evolver
from domain.kit.outcome import game_ended
from domain.shared.dealing import hand_dealt
from domain.shared.passing import cards_passed
from domain.shared.tricks import card_played, next_seat
from domain.shared.tuples import set_at


def _deal_committed(state: State, event: ev.DealCommitted) -> State:
    # A new round: everything of the last round goes, life stays (S10).
    fresh = initial_state(state.players, state.first_lead_snake_allowed)
    return replace(fresh, life=state.life, round=event.round, commitment=event.commitment)


def _pass_count_awaited(state: State, event: ev.PassCountAwaited) -> State:
    return replace(state, phase="choosing_pass_count", pass_chooser=event.chooser)


def _pass_count_set(state: State, event: ev.PassCountSet) -> State:
    # With 0 the relic phase follows at once (RelicPhaseStarted sets its own phase).
    return replace(state, pass_count=event.count, phase="passing" if event.count else state.phase)


def _cards_received(state: State, event: ev.CardsReceived) -> State:
    hand = state.hands[event.seat] + event.cards
    return replace(
        state,
        hands=set_at(state.hands, event.seat, hand),
        received=set_at(state.received, event.seat, event.cards),
    )


def _relic_phase_started(state: State, event: ev.RelicPhaseStarted) -> State:
    return replace(
        state,
        phase="relics",
        relics=(0,) * state.players,
        relics_left=RELICS,
        relic_turn=event.starter,
        passes_in_a_row=0,
        taken_this_phase=False,
    )


def _relics_taken(state: State, event: ev.RelicsTaken) -> State:
    return replace(
        state,
        relics=set_at(state.relics, event.seat, state.relics[event.seat] + event.count),
        relics_left=event.left,
        relic_turn=next_seat(event.seat, state.players),
        passes_in_a_row=0,
        taken_this_phase=True,
    )


def _relics_declined(state: State, event: ev.RelicsDeclined) -> State:
    return replace(
        state,
        relic_turn=next_seat(event.seat, state.players),
        passes_in_a_row=state.passes_in_a_row + 1,
    )


def _relics_cursed(state: State, event: ev.RelicsCursed) -> State:
    return replace(state, life=event.life, curses=event.curse, relic_turn=None)


def _hand_passed(state: State, event: ev.HandPassed) -> State:
    return replace(state, hands=set_at(state.hands, event.seat, event.cards))


def _hunt_started(state: State, event: ev.HuntStarted) -> State:
    return replace(
        state, phase="playing", relic_turn=None, leader=event.leader, special_hunt=event.special
    )


def _card_played(state: State, event: ev.CardPlayed) -> State:
    return card_played(state, event.seat, event.card)


def _trick_won(state: State, event: ev.TrickWon) -> State:
    seat = event.seat
    face_up = tuple(card for card in event.cards if bites_of(card))
    over = all(not hand for hand in state.hands)  # the last trick: the round awaits scoring
    return replace(
        state,
        bite_cards=set_at(state.bite_cards, seat, state.bite_cards[seat] + face_up),
        tricks_won=set_at(state.tricks_won, seat, state.tricks_won[seat] + 1),
        tricks_played=state.tricks_played + 1,
        trick=(),
        last_trick=state.trick,
        leader=seat,  # S7: the winner leads next
        phase="scoring" if over else state.phase,
    )


def _round_scored(state: State, event: ev.RoundScored) -> State:
    return replace(state, life=event.life, phase="dealing")


_APPLIERS: dict[type[Event], Applier[State]] = {
    ev.DealCommitted: _deal_committed,
    ev.HandDealt: hand_dealt,
    ev.PassCountAwaited: _pass_count_awaited,
    ev.PassCountSet: _pass_count_set,
    ev.CardsPassed: cards_passed,
    ev.CardsReceived: _cards_received,
    ev.RelicPhaseStarted: _relic_phase_started,
    ev.RelicsTaken: _relics_taken,
    ev.RelicsDeclined: _relics_declined,
    ev.RelicsCursed: _relics_cursed,
    ev.HandPassed: _hand_passed,
    ev.HuntStarted: _hunt_started,
    ev.CardPlayed: _card_played,
    ev.TrickWon: _trick_won,
    ev.RoundScored: _round_scored,
    ev.GameEnded: game_ended,
}

evolve = evolver(_APPLIERS, ignored=(ev.DeckSealed,))  # S2: every card is dealt
