"""The only randomness of a game: deals shuffled with a CSPRNG (G2) and a random first leader
(G4). What it draws is written into events, so replays never shuffle again."""

from __future__ import annotations

import secrets

from domain.cards import Card
from domain.decider import Deal

_random = secrets.SystemRandom()


def fresh_deal(cards: tuple[Card, ...], players: int, fixed: tuple[Card, ...] | None) -> Deal:
    deck = list(fixed) if fixed is not None else list(cards)
    if fixed is None:
        _random.shuffle(deck)
    salt = secrets.token_hex(16)
    return Deal(deck=tuple(deck), salt=salt, first_leader=_random.randrange(players))
