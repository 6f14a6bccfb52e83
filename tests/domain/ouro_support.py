"""Helpers for the Ouroboros Trick tests: cards by short names, and a game's past as events."""

from __future__ import annotations

from domain.games.ouroboros_trick import GAME
from domain.games.ouroboros_trick.events import (
    CardPlayed,
    CardsDiscarded,
    Discard,
    DiscardAwaited,
    TrickWon,
)
from domain.kit.decider import Event
from tests.domain import support

OURO = support.GameHelpers(GAME, support.card_reader(support.COLOURS))
"""Cards as 'r7' -> red 7, 'y12' -> yellow 12 (suits by their initial)."""
card, cards, given, deal, play = OURO.card, OURO.cards, OURO.given, OURO.deal, OURO.play
command_for, play_bot_game = OURO.command_for, OURO.play_bot_game


def playing(hands: list[str], leader: int = 0) -> list[Event]:
    """A deal of these hands, e.g. ['r1 r2', 'y3 y4'] (O1's 12 cards each are not checked)."""
    return support.deal_of([cards(hand) for hand in hands], leader=leader)


def played(seat: int, text: str) -> CardPlayed:
    return CardPlayed(seat, card(text))


def trick(texts: str, leader: int, winner: int, discarding: str = "") -> list[Event]:
    """A whole earlier trick at three seats: these cards played from `leader` on, its winner
    pooling them and asked to discard as many cards as the lowest rank in it (O4), then, if
    named, the cards it chose to discard."""
    plays = OURO.in_turn(played, texts, leader)
    lowest = min(card(text).rank for text in texts.split())
    owed = [TrickWon(winner, cards(texts), lowest), DiscardAwaited(winner, lowest)]
    return [*plays, *owed, *([discarded(winner, discarding)] if discarding else [])]


def discarded(seat: int, texts: str) -> CardsDiscarded:
    """A discard the seat chose."""
    return CardsDiscarded(seat, cards(texts), forced=False)


def discard(seat: int, texts: str) -> Discard:
    return Discard(seat, cards(texts))
