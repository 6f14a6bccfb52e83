"""Trick-taking helpers the trick games share (Trick & Snipers, Ouroboros Trick, St Patrick).

A trick is a tuple of `Play`s in the order they were made; its first play sets the led suit.
Every trick game's seat plays with the one `PlayCard` command (the API action `play_card`);
Ouroboros Trick and St Patrick record it as `CardPlayed`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from domain.kit.cards import Card, remove_cards
from domain.kit.checks import check_held, check_seat
from domain.kit.decider import Command, Event, IllegalAction
from domain.kit.game_state import GameState
from domain.shared.tuples import set_at


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": self.card.to_json()}


Trick = tuple[Play, ...]


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """Public: the seat's card is on the trick (Trick & Snipers' own also says if it sniped)."""

    seat: int
    card: Card


class TrickState(GameState, Protocol):
    """What the trick helpers read: who leads, the trick so far (and, of GameState, the phase
    "playing" in which cards are played, the players and their hands)."""

    @property
    def leader(self) -> int | None: ...

    @property
    def trick(self) -> Trick: ...


TS = TypeVar("TS", bound=TrickState)


def next_seat(seat: int, players: int) -> int:
    """Clockwise is increasing seat number (G1)."""
    return (seat + 1) % players


def seat_to_play(leader: int, trick: Trick, players: int) -> int:
    return (leader + len(trick)) % players


def led_suit(trick: Trick) -> str | None:
    return trick[0].card.suit if trick else None


def playable_cards(hand: Iterable[Card], led: str | None) -> tuple[Card, ...]:
    """Must follow suit: the cards of the led suit if the hand has any, otherwise any card."""
    cards = tuple(hand)
    following = tuple(card for card in cards if card.suit == led)
    return following or cards


def best_play(trick: Trick, key: Callable[[Play], Any]) -> Play | None:
    """The play with the highest key; a key of None never wins; on equal keys the later play
    wins (Ouroboros O3 needs that; with unique cards of one suit it never matters)."""
    best: Play | None = None
    best_key: Any = None
    for play in trick:
        play_key = key(play)
        if play_key is not None and (best is None or play_key >= best_key):
            best, best_key = play, play_key
    return best


def highest_of_led(trick: Trick) -> Play | None:
    """The play winning so far when only the led suit can win (off-suit cards never win)."""
    led = led_suit(trick)
    return best_play(trick, lambda play: play.card.rank if play.card.suit == led else None)


def trick_cards(trick: Trick) -> tuple[Card, ...]:
    return tuple(play.card for play in trick)


def plays_json(trick: Trick) -> list[dict[str, Any]]:
    return [play.to_json() for play in trick]


def card_turn(state: TrickState) -> int | None:
    """The seat to play a card, if a card is awaited: only in the phase "playing"."""
    if state.phase != "playing" or state.leader is None:
        return None
    return seat_to_play(state.leader, state.trick, state.players)


def checked_play(state: TrickState, seat: object, card: object) -> int:
    """The seat of a card play, once it is its turn, it holds the card and follows suit."""
    checked = check_seat(seat, state.players)
    if checked != card_turn(state):
        raise IllegalAction(f"it is not your turn: seat {card_turn(state)} plays next")
    hand = state.hands[checked]
    check_held(hand, (card,))
    led = led_suit(state.trick)
    if card not in playable_cards(hand, led):
        raise IllegalAction(f"you must follow suit: play a {led} card")
    return checked


def card_played(state: TS, seat: int, card: Card) -> TS:
    """Evolve: the card leaves the seat's hand for the trick."""
    hand = remove_cards(state.hands[seat], (card,))
    return replace(
        state, hands=set_at(state.hands, seat, hand), trick=(*state.trick, Play(seat, card))
    )


class ListTrick:
    """The trick rules above on the mutable lists of a simulator's playout (the strong bots'
    searches), as plain loops for speed: a slots dataclass with these fields inherits them.
    Methods rather than functions, so that a playout's hottest calls are one call deep."""

    __slots__ = ()
    players: int
    hands: list[list[Card]]
    leader: int
    trick: list[Play]

    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def playable(self, seat: int) -> list[Card]:
        """Must follow suit (`playable_cards`)."""
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)
        led = self.trick[0].card.suit
        return [card for card in hand if card.suit == led] or list(hand)

    def winning(self) -> Play | None:
        """The play winning so far when only the led suit wins (`highest_of_led`)."""
        if not self.trick:
            return None
        led = self.trick[0].card.suit
        best = self.trick[0]
        for play in self.trick[1:]:
            if play.card.suit == led and play.card.rank > best.card.rank:
                best = play
        return best
