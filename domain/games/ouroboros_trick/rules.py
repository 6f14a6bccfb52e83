"""Ouroboros Trick decide: validates a command and returns every event it causes."""

from __future__ import annotations

from domain.games.ouroboros_trick.events import CardPlayed, CardsDiscarded, Discard, TrickWon
from domain.games.ouroboros_trick.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.ouroboros_trick.processing import (
    aftermath,
    lowest_rank,
    trick_winner,
    winner_discards,
)
from domain.games.ouroboros_trick.state import HAND_SIZE, State, deck_for
from domain.kit.checks import check_held, check_seat
from domain.kit.decider import Command, Deal, Event, IllegalAction, fold
from domain.kit.dispatch import Handler, decide_command
from domain.shared.dealing import checked_deck, deal_events, first_leader
from domain.shared.tricks import PlayCard, checked_play, trick_cards

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    handlers: dict[type[Command], Handler[State]] = {PlayCard: _play, Discard: _discard}
    return decide_command(state, command, "Ouroboros Trick", _deal, handlers)


def _deal(state: State, command: Deal) -> list[Event]:
    deck = checked_deck(command.deck, deck_for(state.players), "cards of this game")  # O1
    leader = first_leader(state.first_leader_option, command.first_leader, state.players)
    return deal_events(state.round, deck, command.salt, (HAND_SIZE,) * state.players, leader)


def _play(state: State, command: PlayCard) -> list[Event]:
    if state.phase != "playing":
        raise IllegalAction("no card can be played while the trick winner is discarding")
    seat = checked_play(state, command.seat, command.card)
    card_played = CardPlayed(seat, command.card)
    if len(state.trick) < state.players - 1:  # the trick goes on
        return [card_played]
    trick = evolve(state, card_played).trick
    winner, k = trick_winner(trick).seat, lowest_rank(trick)
    won = TrickWon(winner, trick_cards(trick), k)
    after = fold(evolve, state, [card_played, won])
    owed = winner_discards(winner, after.hands[winner], after.pools[winner], k)
    return [card_played, won, *owed, *_unless_awaited(fold(evolve, after, owed))]


def _discard(state: State, command: Discard) -> list[Event]:
    pending = state.pending
    if state.phase != "discarding" or pending is None:
        raise IllegalAction("there is nothing to discard now: cards are being played")
    seat = check_seat(command.seat, state.players)
    if seat != pending.seat:
        raise IllegalAction(f"it is not your turn: seat {pending.seat} must discard")
    cards = tuple(command.cards)
    if len(cards) != pending.count:
        raise IllegalAction(f"discard exactly {pending.count} cards, not {len(cards)}")
    check_held(state.hands[seat], cards)
    events: list[Event] = [CardsDiscarded(seat, cards, forced=False)]
    return events + aftermath(fold(evolve, state, events))


def _unless_awaited(state: State) -> list[Event]:
    """O5 runs once the winner's discard is done; a pending choice puts it off until then."""
    return [] if state.phase == "discarding" else aftermath(state)
