"""What each viewer of a game may know, modelled on the test's side, and the cards a response
shows: anything shaped like a card (`{"suit", "rank"}`), or a card named in text ("red 5").

The model never reads the server's private state: it is built from the deck the test dealt (or
each seat's own first view), the actions the test itself sent, and the rules of who learns what.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

Card = tuple[str, int]
Viewer = int | None  # a seat, or None for a spectator

SUITS = ("red", "yellow", "green", "blue")
_SUIT = "|".join(SUITS)
# "red 5" as a message would spell it, and "Card(suit='red', rank=5)" as a repr would.
CARD_TEXT = re.compile(rf"\b({_SUIT})\s+(\d{{1,2}})\b", re.IGNORECASE)
CARD_REPR = re.compile(rf"suit\W+({_SUIT})\W+rank\W+(\d{{1,2}})\b", re.IGNORECASE)


def card_of(value: dict) -> Card:
    return (value["suit"], value["rank"])


def cards_of(values: Iterable[dict]) -> set[Card]:
    return {card_of(value) for value in values}


def card_json(card: Card) -> dict:
    return {"suit": card[0], "rank": card[1]}


def cards_shown(value: Any, path: str = "$") -> Iterator[tuple[str, Card]]:
    """Every card in a JSON value, with where it is, walking every dict, list and string."""
    if isinstance(value, dict):
        if "suit" in value and "rank" in value:
            yield path, (value["suit"], value["rank"])
        for key, item in value.items():
            yield from _cards_in_text(str(key), f"{path}.<key {key!r}>")
            yield from cards_shown(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from cards_shown(item, f"{path}[{index}]")
    elif isinstance(value, str):
        yield from _cards_in_text(value, path)


def _cards_in_text(text: str, path: str) -> Iterator[tuple[str, Card]]:
    for pattern in (CARD_TEXT, CARD_REPR):
        for match in pattern.finditer(text):
            yield f"{path} ({text!r})", (match[1].lower(), int(match[2]))


class Knowledge:
    """The cards each viewer may know at this moment; only ever grows until the game ends."""

    def __init__(self, viewers: Iterable[Viewer]) -> None:
        self.known: dict[Viewer, set[Card]] = {viewer: set() for viewer in viewers}

    def learn(self, viewer: Viewer, cards: Iterable[Card]) -> None:
        self.known[viewer] |= set(cards)

    def make_public(self, cards: Iterable[Card]) -> None:
        for viewer in self.known:
            self.learn(viewer, cards)

    def unknown_shown(
        self, viewer: Viewer, body: Any, also: Iterable[Card] = ()
    ) -> list[tuple[str, Card]]:
        """The cards `body` shows that `viewer` may not know (`also`: cards it just named)."""
        allowed = self.known[viewer] | set(also)
        return [(path, card) for path, card in cards_shown(body) if card not in allowed]
