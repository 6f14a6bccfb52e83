"""Trick & Snipers bots: pure functions of the seat's own view and a generator they are handed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.games.trick_and_snipers.rules import is_snipe
from domain.games.trick_and_snipers.state import POINT_RANK, SNIPE_TOTAL
from domain.kit.budget import Budget
from domain.kit.cards import Card, cards_json
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.shared.tricks import Play, highest_of_led


def basic_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    template = seat_templates(view)[0]
    cards = [Card.from_json(card) for card in template["cards"]]
    if template["type"] == "pass_cards":
        return {"type": "pass_cards", "cards": cards_json(choose_pass(cards, template["count"]))}
    trick = tuple(Play(p["seat"], Card.from_json(p["card"])) for p in view["trick"])
    last = len(trick) == len(view["seats"]) - 1
    return {"type": "play_card", "card": choose_play(trick, cards, last).to_json()}


def choose_pass(hand: list[Card], count: int) -> list[Card]:
    """Give away 7s it cannot protect (no higher card of the suit), then short suits, high
    first: voids are what make snipes possible."""
    lengths = Counter(card.suit for card in hand)

    def unprotected_seven(card: Card) -> bool:
        higher = any(c.suit == card.suit and c.rank > card.rank for c in hand)
        return card.rank == POINT_RANK and not higher

    ranked = sorted(hand, key=lambda c: (not unprotected_seven(c), lengths[c.suit], -c.rank))
    return ranked[:count]


def choose_play(trick: tuple[Play, ...], playable: list[Card], last: bool) -> Card:
    not_sevens = [card for card in playable if card.rank != POINT_RANK]
    winning = highest_of_led(trick)
    if winning is None:  # leading: low, and never a 7 someone else could take
        return min(not_sevens or playable, key=lambda c: c.rank)
    if playable[0].suit != winning.card.suit:
        return _off_suit(winning.card, playable, not_sevens)
    beating = [card for card in playable if card.rank > winning.card.rank]
    sniped = any(is_snipe(trick[:i], play.card) for i, play in enumerate(trick))
    has_seven = any(play.card.rank == POINT_RANK for play in trick)
    seven = next((card for card in beating if card.rank == POINT_RANK), None)
    if beating and not sniped and (has_seven or seven):
        if seven is not None:
            return seven
        return min(beating, key=lambda c: c.rank) if last else max(beating, key=lambda c: c.rank)
    ducking = [card for card in not_sevens if card.rank < winning.card.rank]
    if ducking:  # shed the highest card that still loses
        return max(ducking, key=lambda c: c.rank)
    return min(not_sevens or playable, key=lambda c: c.rank)


def _off_suit(winning: Card, playable: list[Card], not_sevens: list[Card]) -> Card:
    snipes = [card for card in playable if card.rank + winning.rank == SNIPE_TOTAL]
    if snipes:
        return snipes[0]
    # Never hand a 7 to the trick's winner; shed a high card instead.
    return max(not_sevens, key=lambda c: c.rank) if not_sevens else playable[0]
