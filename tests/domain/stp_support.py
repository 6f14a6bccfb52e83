"""Helpers for the St Patrick tests: cards by short names, and a game's past as events."""

from __future__ import annotations

import random

from domain.games.st_patrick import GAME
from domain.games.st_patrick.events import (
    CardPlayed,
    HuntStarted,
    PassRelics,
    RelicPhaseStarted,
    RelicsCursed,
    RelicsTaken,
    RoundScored,
    TakeRelics,
    TrickWon,
)
from domain.games.st_patrick.state import DECK, RELICS, START_LIFE, total_bites
from domain.kit.cards import Card
from domain.kit.decider import Event
from tests.domain import support

STP = support.GameHelpers(
    GAME, support.card_reader({"c": "clover", "x": "cross", "h": "harp", "s": "snake"})
)
"""Cards as 'c7' -> clover 7 (St Patrick), 'x7' cross 7, 'h7' harp 7, 's9' snake 9."""
card, cards, given, play, command_for = STP.card, STP.cards, STP.given, STP.play, STP.command_for


def shuffled(seed: int) -> tuple[Card, ...]:
    return tuple(random.Random(seed).sample(DECK, len(DECK)))


def dealt(hands: list[str], round_number: int = 1) -> list[Event]:
    """A deal of these hands (e.g. ['c7 s1', 'x1 s2']; S2's whole deck is not checked)."""
    return support.deal_of([cards(hand) for hand in hands], round_number=round_number)


def round_scored(life: tuple[int, ...]) -> RoundScored:
    """Round 1 scored, leaving this life (its other figures do not matter to what follows)."""
    changes = tuple(have - START_LIFE for have in life)
    nothing = (0,) * len(life)
    return RoundScored(1, nothing, nothing, changes, life, None, False)


def relics(starter: int, held: tuple[int, ...] = (), number: int = 1) -> list[Event]:
    """A relic phase from `starter` in which each seat took `held[seat]` relics (S4)."""
    events: list[Event] = [RelicPhaseStarted(number, starter)]
    left = RELICS
    for seat, count in enumerate(held):
        if count:
            left -= count
            events.append(RelicsTaken(seat, count, left))
    return events


def hunt(leader: int, held: tuple[int, ...] = (), special: bool = False) -> list[Event]:
    """The relic phase (as `relics`), then the hunt led by `leader` (S7, or S6's special)."""
    return [*relics(leader, held), HuntStarted(leader, special)]


def played(seat: int, text: str) -> CardPlayed:
    return CardPlayed(seat, card(text))


def trick(texts: str, leader: int, winner: int) -> list[Event]:
    """A whole earlier trick at three seats: these cards played from `leader` on, then won."""
    return [*STP.in_turn(played, texts, leader), won(winner, texts)]


def won(seat: int, texts: str) -> TrickWon:
    return TrickWon(seat, cards(texts), total_bites(cards(texts)))


def round_to_score(life: tuple[int, ...], held: tuple[int, ...], taken: list[str]) -> list[Event]:
    """A round over and waiting for its scoring: a curse left this life (S5), then the seats
    held these relics, and seat s won the cards `taken[s]` (its bite cards lie face up), the
    last trick emptying every hand."""
    no_hands = [""] * len(life)
    cursed = RelicsCursed(1, tuple(START_LIFE - have for have in life), life)
    tricks = [won(seat, text) for seat, text in enumerate(taken)]
    return [*dealt(no_hands), cursed, *relics(0, held, number=2), HuntStarted(0, False), *tricks]


def take(seat: int, count: int) -> TakeRelics:
    return TakeRelics(seat, count)


def decline(seat: int) -> PassRelics:
    return PassRelics(seat)
