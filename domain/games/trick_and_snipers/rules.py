"""Trick & Snipers decide: validates a command and returns every event it causes."""

from __future__ import annotations

from domain.cards import Card
from domain.checks import check_secret_choice
from domain.dealing import checked_deck, deal_events, first_leader
from domain.decider import Command, Deal, Event, IllegalAction
from domain.dispatch import decide_command
from domain.games.trick_and_snipers.events import (
    CardPlayed,
    CardsPassed,
    GameEnded,
    PassCards,
    PlayCard,
    TrickWon,
)
from domain.games.trick_and_snipers.evolve import evolve  # re-exported: rules = decide + evolve
from domain.games.trick_and_snipers.scoring import game_end, trick_result
from domain.games.trick_and_snipers.state import (
    HAND_SIZES,
    PASS_COUNT,
    SNIPE_TOTAL,
    State,
    deck_for,
)
from domain.passing import passed_left
from domain.tricks import Play, Trick, checked_play, highest_of_led, led_suit
from domain.tuples import set_at

__all__ = ["decide", "evolve"]


def decide(state: State, command: Command) -> list[Event]:
    handlers = {PassCards: _pass, PlayCard: _play}
    return decide_command(state, command, "Trick & Snipers", _deal, handlers)


def _deal(state: State, command: Deal) -> list[Event]:
    deck = checked_deck(command.deck, deck_for(state.players), "cards of this game")  # T1
    leader = first_leader(state.first_leader_option, command.first_leader, state.players)
    sizes = (HAND_SIZES[state.players],) * state.players
    return deal_events(state.round, deck, command.salt, sizes, leader)


def _pass(state: State, command: PassCards) -> list[Event]:
    if state.phase != "passing":
        raise IllegalAction("cards are passed only before the first trick")
    seat, cards = check_secret_choice(
        state.passed, state.hands, command.seat, command.cards, PASS_COUNT, "pass"
    )
    events: list[Event] = [CardsPassed(seat, cards)]
    passed = set_at(state.passed, seat, cards)
    if all(choice is not None for choice in passed):
        # G3: the last choice makes every choice take effect at once; T2: to the left.
        events += passed_left(passed)
    return events


def _play(state: State, command: PlayCard) -> list[Event]:
    if state.phase != "playing":
        raise IllegalAction("no card can be played while cards are being passed")
    seat = checked_play(state, command.seat, command.card)
    snipe = is_snipe(state.trick, command.card)
    events: list[Event] = [CardPlayed(seat, command.card, snipe)]
    trick = (*state.trick, Play(seat, command.card))
    if len(trick) < state.players:
        return events
    won = trick_result(trick, seat if snipe else state.last_sniper)
    events.append(won)
    ended = _ending(state, won, hands_left=sum(len(h) for h in state.hands) - 1)
    return events + ([ended] if ended else [])


def is_snipe(trick: Trick, card: Card) -> bool:
    """T4: off the led suit, and adds up to 13 with the card winning the trick right now."""
    winning = highest_of_led(trick)
    return (
        winning is not None
        and card.suit != led_suit(trick)
        and card.rank + winning.card.rank == SNIPE_TOTAL
    )


def _ending(state: State, won: TrickWon, hands_left: int) -> GameEnded | None:
    points = state.victory_points
    if won.point_to is not None:
        points = set_at(points, won.point_to, points[won.point_to] + 1)
    tricks = set_at(state.tricks_won, won.seat, state.tricks_won[won.seat] + 1)
    return game_end(points, tricks, hands_empty=hands_left == 0)
