"""Trick & Snipers decide: validates a command and returns every event it causes."""

from __future__ import annotations

from domain.games.trick_and_snipers.events import CardPlayed, GameEnded, PassCards
from domain.games.trick_and_snipers.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.trick_and_snipers.scoring import game_end, trick_result
from domain.games.trick_and_snipers.state import (
    HAND_SIZES,
    PASS_COUNT,
    SNIPE_TOTAL,
    State,
    deck_for,
)
from domain.kit.cards import Card
from domain.kit.decider import Command, Deal, Event, IllegalAction
from domain.kit.dispatch import Handler, decide_command
from domain.shared.dealing import checked_deck, deal_events, first_leader
from domain.shared.passing import pass_cards
from domain.shared.tricks import PlayCard, Trick, checked_play, highest_of_led, led_suit

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    handlers: dict[type[Command], Handler[State]] = {PassCards: _pass, PlayCard: _play}
    return decide_command(state, command, "Trick & Snipers", _deal, handlers)


def _deal(state: State, command: Deal) -> list[Event]:
    deck = checked_deck(command.deck, deck_for(state.players), "cards of this game")  # T1
    leader = first_leader(state.first_leader_option, command.first_leader, state.players)
    sizes = (HAND_SIZES[state.players],) * state.players
    return deal_events(state.round, deck, command.salt, sizes, leader)


def _pass(state: State, command: PassCards) -> list[Event]:
    if state.phase != "passing":
        raise IllegalAction("cards are passed only before the first trick")
    return pass_cards(state, command.seat, command.cards, PASS_COUNT, evolve)  # T2


def _play(state: State, command: PlayCard) -> list[Event]:
    if state.phase != "playing":
        raise IllegalAction("no card can be played while cards are being passed")
    seat = checked_play(state, command.seat, command.card)
    card_played = CardPlayed(seat, command.card, is_snipe(state.trick, command.card))
    if len(state.trick) < state.players - 1:  # the trick goes on
        return [card_played]
    played = evolve(state, card_played)
    won = trick_result(played.trick, played.last_sniper)
    ended = _ending(evolve(played, won))
    return [card_played, won, *([ended] if ended else [])]


def is_snipe(trick: Trick, card: Card) -> bool:
    """T4: off the led suit, and adds up to 13 with the card winning the trick right now."""
    winning = highest_of_led(trick)
    return (
        winning is not None
        and card.suit != led_suit(trick)
        and card.rank + winning.card.rank == SNIPE_TOTAL
    )


def _ending(after: State) -> GameEnded | None:
    """T6, on the state the trick's result left."""
    hands_empty = not any(after.hands)
    return game_end(after.victory_points, after.tricks_won, hands_empty=hands_empty)
