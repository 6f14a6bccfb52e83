"""Helpers for the Trick & Snipers tests: cards by short names, and a game's past as events."""

from __future__ import annotations

from domain.games.trick_and_snipers import GAME
from domain.games.trick_and_snipers.events import CardPlayed, CardsPassed, TrickWon
from domain.kit.decider import Event
from domain.shared.passing import passed_left
from tests.domain import support

TNS = support.GameHelpers(GAME, support.card_reader(support.COLOURS))
"""Cards as 'r7' -> red 7, 'y12' -> yellow 12 (suits by their initial)."""
card, cards, given, deal, play = TNS.card, TNS.cards, TNS.given, TNS.deal, TNS.play
command_for, play_bot_game = TNS.command_for, TNS.play_bot_game


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


def trick(texts: str, leader: int, winner: int, point_to: int | None = None) -> list[Event]:
    """A whole earlier trick at three seats: these cards played from `leader` on (no snipe
    among them), then its result."""
    return [*TNS.in_turn(played, texts, leader), won(winner, texts, point_to)]
