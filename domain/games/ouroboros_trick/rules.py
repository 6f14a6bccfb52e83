"""Ouroboros Trick decide: validates a command and returns every event it causes."""

from __future__ import annotations

from domain.cards import Card
from domain.codec import deal_commitment
from domain.decider import (
    Command,
    Deal,
    Event,
    GameFinished,
    GameNotStarted,
    IllegalAction,
    fold,
)
from domain.games.ouroboros_trick.events import (
    CardPlayed,
    CardsDiscarded,
    DealCommitted,
    DeckSealed,
    Discard,
    HandDealt,
    PlayCard,
    TrickWon,
)
from domain.games.ouroboros_trick.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.ouroboros_trick.processing import (
    aftermath,
    lowest_rank,
    trick_winner,
    winner_discards,
)
from domain.games.ouroboros_trick.state import HAND_SIZE, State, deck_for, is_terminal, turn
from domain.tricks import Play, led_suit, playable_cards, trick_cards

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    if is_terminal(state):
        raise GameFinished("the game is over")
    if isinstance(command, Deal):
        return _deal(state, command)
    if state.phase == "dealing":
        raise GameNotStarted("the cards have not been dealt yet")
    if isinstance(command, PlayCard):
        return _play(state, command)
    if isinstance(command, Discard):
        return _discard(state, command)
    raise IllegalAction(f"{type(command).__name__} is not an action of Ouroboros Trick")


def _check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    return seat


def _deal(state: State, command: Deal) -> list[Event]:
    if state.phase != "dealing":
        raise IllegalAction("the cards have already been dealt")
    deck = tuple(command.deck)
    expected = deck_for(state.players)
    # A deal must be exactly this game's cards, each once (G5, O1), in any order.
    if not all(isinstance(card, Card) for card in deck) or sorted(deck) != sorted(expected):
        raise IllegalAction(f"the deck must be a shuffle of the {len(expected)} cards of this game")
    leader = state.first_leader_option
    if leader is None:  # G4: the option wins over the random pick made at the deal
        leader = _check_seat(state, command.first_leader)
    hands = [
        HandDealt(seat, deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
        for seat in range(state.players)
    ]
    committed = DealCommitted(
        round=state.round,
        commitment=deal_commitment(command.salt, deck),
        first_leader=leader,
        hand_sizes=(HAND_SIZE,) * state.players,
    )
    return [committed, *hands, DeckSealed(state.round, deck, command.salt)]


def _check_held(hand: tuple[Card, ...], cards: tuple[object, ...]) -> None:
    # Only the caller's own claims are echoed, so no hidden card can leak here.
    for card in cards:
        if not isinstance(card, Card) or card not in hand:
            raise IllegalAction(f"you do not hold {card}")


def _play(state: State, command: PlayCard) -> list[Event]:
    if state.phase != "playing":
        raise IllegalAction("no card can be played while the trick winner is discarding")
    seat = _check_seat(state, command.seat)
    if seat != turn(state):
        raise IllegalAction(f"it is not your turn: seat {turn(state)} plays next")
    hand = state.hands[seat]
    _check_held(hand, (command.card,))
    led = led_suit(state.trick)
    if command.card not in playable_cards(hand, led):
        raise IllegalAction(f"you must follow suit: play a {led} card")
    events: list[Event] = [CardPlayed(seat, command.card)]
    trick = (*state.trick, Play(seat, command.card))
    if len(trick) < state.players:
        return events
    winner = trick_winner(trick).seat
    events.append(TrickWon(winner, trick_cards(trick), lowest_rank(trick)))
    after = fold(evolve, state, events)
    events += winner_discards(winner, after.hands[winner], after.pools[winner], lowest_rank(trick))
    return events + _unless_awaited(fold(evolve, state, events))


def _discard(state: State, command: Discard) -> list[Event]:
    pending = state.pending
    if state.phase != "discarding" or pending is None:
        raise IllegalAction("there is nothing to discard now: cards are being played")
    seat = _check_seat(state, command.seat)
    if seat != pending.seat:
        raise IllegalAction(f"it is not your turn: seat {pending.seat} must discard")
    cards = tuple(command.cards)
    if len(cards) != pending.count:
        raise IllegalAction(f"discard exactly {pending.count} cards, not {len(cards)}")
    _check_held(state.hands[seat], cards)
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card is named more than once")
    events: list[Event] = [CardsDiscarded(seat, cards, forced=False)]
    return events + aftermath(fold(evolve, state, events))


def _unless_awaited(state: State) -> list[Event]:
    """O5 runs once the winner's discard is done; a pending choice puts it off until then."""
    return [] if state.phase == "discarding" else aftermath(state)
