"""Helpers for the Trick & Snipers tests: cards by short names, and a game's past as events."""

from __future__ import annotations

from functools import partial

from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import CardPlayed, CardsPassed, TrickWon
from domain.kit.decider import Event
from domain.shared.passing import passed_left
from domain.shared.tricks import PlayCard
from tests.domain import decider_spec, support

card = support.card_reader({"r": "red", "y": "yellow", "g": "green", "b": "blue"})
"""'r7' -> red 7, 'y12' -> yellow 12 (suits by their initial)."""
cards = support.cards_reader(card)
given = partial(decider_spec.given, GAME)
command_for = partial(support.command_for, GAME)
play_bot_game = partial(support.play_bot_game, GAME)


def deal(players: int, seed: int = 0, first_leader: int = 0) -> list[Event]:
    """The events of a deal of the deck shuffled with `seed`."""
    return support.shuffled_deal(GAME, players, seed, first_leader)


def playing(hands: list[str], leader: int = 0, leftover: str = "") -> list[Event]:
    """A deal of these hands (e.g. ['r1 r2', 'y3 y4']) and `leftover`, and the passing done:
    the hands are those after it, so nothing is shown passing."""
    dealt_events = support.deal_of([cards(hand) for hand in hands], cards(leftover), leader)
    nothing = ((),) * len(hands)
    return [*dealt_events, *(CardsPassed(s, ()) for s in range(len(hands))), *passed_left(nothing)]


def played(seat: int, text: str, snipe: bool = False) -> CardPlayed:
    return CardPlayed(seat, card(text), snipe)


def won(seat: int, texts: str, point_to: int | None = None) -> TrickWon:
    """A trick of these cards won by `seat`, its point (if any) to `point_to`, face up if so."""
    return TrickWon(seat, cards(texts), point_to, face_up=point_to is not None)


def play(seat: int, text: str) -> PlayCard:
    return PlayCard(seat, card(text))


def trick(texts: str, leader: int, winner: int, point_to: int | None = None) -> list[Event]:
    """A whole earlier trick at three seats: these cards played from `leader` on (no snipe
    among them), then its result."""
    plays = [played((leader + i) % 3, text) for i, text in enumerate(texts.split())]
    return [*plays, won(winner, texts, point_to)]
