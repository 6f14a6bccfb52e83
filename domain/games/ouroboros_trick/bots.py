"""Ouroboros Trick bots: pure functions of the seat's own view and a generator they are handed.

The basic bot counts cards: a trick won with lowest rank k brings the winner N cards (N players)
for k discarded, a trick lost costs one card. So it wins tricks whose lowest card is at most N,
ducks the others and sheds its highest card when it cannot use it there. It leads the highest
card of its shortest suit, and discards whole short suits, one suit at a time: void in a led
suit, any card it plays is a trump, so it can take a cheap trick with a low card. (Measured with
bench/bot_strength/tournament.py against the other obvious discards: lowest cards first,
highest first, keeping the lowest card, emptying only suits of one or two cards.)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.search.budget import Budget
from domain.shared.cards import Card, cards_json
from domain.shared.tricks import Play, Trick


def basic_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    templates = seat_templates(view)
    template = templates[0]
    cards = [Card.from_json(card) for card in template["cards"]]
    if template["type"] == "discard":
        return {"type": "discard", "cards": cards_json(choose_discard(cards, template["count"]))}
    trick = tuple(Play(p["seat"], Card.from_json(p["card"])) for p in view["trick"])
    players = len(view["seats"])
    return {"type": "play_card", "card": choose_play(trick, cards, players).to_json()}


def choose_discard(hand: list[Card], count: int) -> list[Card]:
    """The shortest suit first (of equally short suits, the one with the lower top card: the
    least use for winning), lowest card first within it, then the next: on the way to a void.
    Against random seats it loses about a sixth less often than discarding its lowest cards."""
    lengths = Counter(card.suit for card in hand)
    tops: dict[str, int] = {}
    for card in hand:
        tops[card.suit] = max(tops.get(card.suit, 0), card.rank)
    return sorted(
        hand, key=lambda card: (lengths[card.suit], tops[card.suit], card.suit, card.rank)
    )[:count]


def wins(trick: Trick, card: Card) -> bool:
    """Would `card` win the trick as it stands (O3: off-suit is trump, later equal wins)?"""
    if not trick:
        return True
    led = trick[0].card.suit
    trumps = [play.card.rank for play in trick if play.card.suit != led]
    if card.suit != led:
        return not trumps or card.rank >= max(trumps)
    return not trumps and card.rank > max(play.card.rank for play in trick)


def choose_play(trick: Trick, playable: list[Card], players: int) -> Card:
    if not trick:
        return choose_lead(playable)
    lowest = min((play.card.rank for play in trick), default=99)
    last = len(trick) == players - 1

    def cost(card: Card) -> int:  # the discard the winner will owe, as far as one can tell
        return min(lowest, card.rank)

    winning = [card for card in playable if wins(trick, card) and cost(card) <= players]
    if winning:
        if last:  # sure to win: the cheapest trick, keeping the high cards
            return min(winning, key=lambda card: (cost(card), card.rank))
        return max(winning, key=lambda card: card.rank)  # hardest to beat later
    losing = [card for card in playable if not wins(trick, card)]
    if losing:  # shed the highest card it cannot use here
        return max(losing, key=lambda card: card.rank)
    return min(playable, key=lambda card: card.rank)  # must win: make it as cheap as it gets


def choose_lead(hand: list[Card]) -> Card:
    """The highest card of the shortest suit: likely to win, and on the way to a void."""
    lengths = Counter(card.suit for card in hand)
    return max(hand, key=lambda card: (-lengths[card.suit], card.rank, card.suit))
