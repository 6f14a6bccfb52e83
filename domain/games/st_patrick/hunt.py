"""The hunt (S7): tricks led first by the holder of clover 7, follow suit, highest of the led
suit wins, and the option `first_lead_snake_allowed`."""

from __future__ import annotations

from domain.games.st_patrick.events import CardPlayed, TrickWon
from domain.games.st_patrick.evolve import evolve
from domain.games.st_patrick.state import SNAKE, State, total_bites
from domain.kit.cards import Card
from domain.kit.checks import check_held, check_seat
from domain.kit.decider import Event, IllegalAction
from domain.shared.tricks import PlayCard, highest_of_led, led_suit, playable_cards, trick_cards
from domain.shared.tricks import card_turn as turn


def playable(state: State, seat: int) -> tuple[Card, ...]:
    """The cards `seat` may play now (empty when it is not its turn)."""
    if turn(state) != seat:
        return ()
    hand = state.hands[seat]
    if state.trick:
        return playable_cards(hand, led_suit(state.trick))
    if state.tricks_played == 0 and not state.first_lead_snake_allowed:
        # The French book: no snake on the first lead, unless the leader holds only snakes.
        return tuple(card for card in hand if card.suit != SNAKE) or hand
    return hand


def play_card(state: State, command: PlayCard) -> list[Event]:
    seat = check_seat(command.seat, state.players)
    if state.phase != "playing":
        raise IllegalAction("cards are played only in the hunt")
    if seat != turn(state):
        raise IllegalAction(f"it is not your turn: seat {turn(state)} plays next")
    check_held(state.hands[seat], (command.card,))
    if command.card not in playable(state, seat):
        led = led_suit(state.trick)
        if led is None:
            raise IllegalAction("the first lead of the hunt may not be a snake card")
        raise IllegalAction(f"you must follow suit: play a {led} card")
    card_played = CardPlayed(seat, command.card)
    if len(state.trick) < state.players - 1:  # the trick goes on
        return [card_played]
    trick = evolve(state, card_played).trick
    winning = highest_of_led(trick)
    assert winning is not None  # a complete trick always has its lead
    cards = trick_cards(trick)
    return [card_played, TrickWon(winning.seat, cards, total_bites(cards))]
