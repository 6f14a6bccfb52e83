"""Cards wherever a page may show them: JSON shaped like a card (`{"suit", "rank"}`), text that
names one ("9 of clover", "clover 9", "queen of hearts", "Q♥"), and HTML (text, every attribute
value such as aria-label or title, and `data-suit`/`data-rank` pairs on one element).

Covers the suits of all four games: St Patrick clover/cross/harp/snake 1-9; Ouroboros Trick and
Trick & Snipers red/yellow/green/blue; Saint Poker spades/hearts/diamonds/clubs 2-14, whose ranks
11-14 a page may name jack, queen, king and ace. And the same cards in French, as the page names
them: "9 de trèfle", "7 rouge", "dame de cœur" ("trèfle" is both St Patrick's clover and poker's
clubs, so it counts as either).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from typing import Any

Card = tuple[str, int]

SUITS = (
    "clover", "cross", "harp", "snake",
    "red", "yellow", "green", "blue",
    "spades", "hearts", "diamonds", "clubs",
)  # fmt: skip
POKER_SUITS = {"spade": "spades", "heart": "hearts", "diamond": "diamonds", "club": "clubs"}
SUIT_SYMBOLS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
for _symbol, _suit in list(SUIT_SYMBOLS.items()):
    SUIT_SYMBOLS[_symbol.replace("♥", "♡").replace("♦", "♢")] = _suit  # outline forms too
SUIT_SYMBOLS.update({"♤": "spades", "♧": "clubs"})
RANK_NAMES = {"jack": 11, "queen": 12, "king": 13, "ace": 14}
RANK_LETTERS = {"J": 11, "Q": 12, "K": 13, "A": 14}

_SUIT = r"clover|cross|harp|snake|red|yellow|green|blue|(?:spade|heart|diamond|club)s?"
_RANK = r"\d{1,2}|jack|queen|king|ace"
_SYMBOL = "".join(SUIT_SYMBOLS)
# "9 of clover", "queen of hearts"; "clover 9", "hearts queen"; "10♠", "Q♥"; and the repr or
# JSON-in-text form "suit='red', rank=5" / "\"suit\": \"red\", \"rank\": 5".
RANK_OF_SUIT = re.compile(rf"\b({_RANK})\s+of\s+({_SUIT})\b", re.IGNORECASE)
SUIT_RANK = re.compile(rf"\b({_SUIT})\s+({_RANK})\b", re.IGNORECASE)
SYMBOL = re.compile(rf"(?<![\w])(10|[2-9]|[JQKA])\s?([{_SYMBOL}])")
REPR = re.compile(rf"suit\W+({_SUIT})\W+rank\W+(\d{{1,2}})\b", re.IGNORECASE)

FRENCH_OF = {  # "<rank> de <suit>"
    "trèfle": ("clover", "clubs"), "croix": ("cross",), "harpe": ("harp",),
    "serpent": ("snake",), "pique": ("spades",), "cœur": ("hearts",), "coeur": ("hearts",),
    "carreau": ("diamonds",),
}  # fmt: skip
FRENCH_COLOURS = {"rouge": "red", "jaune": "yellow", "vert": "green", "bleu": "blue"}
FRENCH_RANKS = {"valet": 11, "dame": 12, "roi": 13, "as": 14}
FRENCH_OF_SUIT = re.compile(
    rf"\b(\d{{1,2}}|valet|dame|roi|as)\s+de\s+({'|'.join(FRENCH_OF)})s?\b", re.IGNORECASE
)
FRENCH_COLOUR = re.compile(r"\b(\d{1,2})\s+(rouge|jaune|verte?|bleue?)s?\b", re.IGNORECASE)


def suit_of(word: str) -> str:
    word = word.lower()
    return POKER_SUITS.get(word, word)


def rank_of(word: str) -> int:
    word = word.lower()
    return RANK_NAMES[word] if word in RANK_NAMES else int(word)


def cards_in_text(text: str) -> Iterator[Card]:
    """Every card the text names, in any of the spellings above (duplicates possible)."""
    for match in RANK_OF_SUIT.finditer(text):
        yield suit_of(match[2]), rank_of(match[1])
    for match in SUIT_RANK.finditer(text):
        yield suit_of(match[1]), rank_of(match[2])
    for match in SYMBOL.finditer(text):
        rank = RANK_LETTERS.get(match[1]) or int(match[1])
        yield SUIT_SYMBOLS[match[2]], rank
    for match in REPR.finditer(text):
        yield suit_of(match[1]), int(match[2])
    for match in FRENCH_OF_SUIT.finditer(text):
        word = match[1].lower()
        rank = FRENCH_RANKS[word] if word in FRENCH_RANKS else int(word)
        for suit in FRENCH_OF[match[2].lower()]:
            yield suit, rank
    for match in FRENCH_COLOUR.finditer(text):
        word = match[2].lower()
        yield FRENCH_COLOURS[{"verte": "vert", "bleue": "bleu"}.get(word, word)], int(match[1])


def cards_in_json(value: Any, path: str = "$") -> Iterator[tuple[str, Card]]:
    """Every card in a JSON value with where it is: dicts with a suit and a rank, and cards
    named in any string or key."""
    if isinstance(value, dict):
        suit, rank = value.get("suit"), value.get("rank")
        if isinstance(suit, str) and isinstance(rank, int | str) and str(rank).isdigit():
            yield path, (suit_of(suit), int(rank))
        for key, item in value.items():
            for card in cards_in_text(str(key)):
                yield f"{path}.<key {key!r}>", card
            yield from cards_in_json(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from cards_in_json(item, f"{path}[{index}]")
    elif isinstance(value, str):
        for card in cards_in_text(value):
            yield f"{path} ({_clip(value)})", card


class _CardFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, Card]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        suit, rank = values.get("data-suit"), values.get("data-rank")
        if suit and rank and rank.strip().isdigit():
            self.found.append((f"<{tag} data-suit data-rank>", (suit_of(suit), int(rank))))
        for name, value in attrs:
            for card in cards_in_text(value or ""):
                self.found.append((f"<{tag} {name}={_clip(value or '')}>", card))

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        for card in cards_in_text(data):
            self.found.append((f"text {_clip(data)}", card))


def cards_in_html(html: str) -> list[tuple[str, Card]]:
    """Every card an HTML document shows, in text or in any attribute, with where."""
    finder = _CardFinder()
    finder.feed(html)
    finder.close()
    return finder.found


def card_json(card: Card) -> dict:
    return {"suit": card[0], "rank": card[1]}


def card_of(value: dict) -> Card:
    return (value["suit"], value["rank"])


def cards_of(values: Iterable[dict]) -> set[Card]:
    return {(value["suit"], value["rank"]) for value in values}


def card_name(card: Card, language: str = "en") -> str:
    """How the page names a card: "9 of clover", "queen of hearts"; in French "9 de trèfle",
    "7 rouge", "dame de cœur"."""
    poker = card[0] in POKER_SUITS.values()
    if language == "fr":
        faces = {rank: name for name, rank in FRENCH_RANKS.items()}
        rank = faces.get(card[1], str(card[1])) if poker else str(card[1])
        colours = {suit: word for word, suit in FRENCH_COLOURS.items()}
        if card[0] in colours:
            return f"{rank} {colours[card[0]]}"
        suits = {"clubs": "trèfle"} | {s[0]: w for w, s in FRENCH_OF.items() if w != "coeur"}
        return f"{rank} de {suits[card[0]]}"
    names = {rank: name for name, rank in RANK_NAMES.items()}
    rank = names.get(card[1], str(card[1])) if poker else str(card[1])
    return f"{rank} of {card[0]}"


def _clip(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")
