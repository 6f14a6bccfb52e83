"""Reading a trick game's view back into cards: what the strong bots start from."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.kit.cards import Card
from domain.shared.tricks import Play


def cards_of(data: Iterable[Mapping[str, Any]]) -> list[Card]:
    return [Card.from_json(card) for card in data]


def plays_of(data: Iterable[Mapping[str, Any]]) -> tuple[Play, ...]:
    return tuple(Play(play["seat"], Card.from_json(play["card"])) for play in data)


def pairs(plays: Iterable[Play]) -> list[tuple[int, Card]]:
    return [(play.seat, play.card) for play in plays]
