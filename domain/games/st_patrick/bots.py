"""St Patrick bots: pure functions of the seat's own view and a generator they are handed."""

from __future__ import annotations

from typing import Any

from domain.games.st_patrick.state import BIG_BITES, SNAKE, bites_of
from domain.kit.budget import Budget
from domain.kit.cards import Card, cards_json
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.shared.tricks import Play, highest_of_led


def basic_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    templates = seat_templates(view)
    kind = templates[0]["type"]
    hand = [Card.from_json(card) for card in view["you"]["hand"]]
    players = len(view["seats"])
    if kind == "choose_pass_count":
        return {"type": kind, "count": 2 if sum(danger(c) >= 10 for c in hand) >= 2 else 1}
    if kind == "pass_cards":
        chosen = sorted(hand, key=danger, reverse=True)[: templates[0]["count"]]
        return {"type": kind, "cards": cards_json(chosen)}
    if kind == "take_relics":
        held = view["seats"][view["you"]["seat"]]["relics"]
        count = relics_to_take(hand, players, held, view["relics_left"])
        return {"type": kind, "count": count} if count else {"type": "pass_relics"}
    trick = tuple(Play(p["seat"], Card.from_json(p["card"])) for p in view["trick"])
    playable = [Card.from_json(card) for card in templates[0]["cards"]]
    last = len(trick) == players - 1
    return {"type": "play_card", "card": choose_play(trick, playable, last).to_json()}


def danger(card: Card) -> int:
    """How likely a card is to bring bites home: the 3-bite 7s, then high snakes, then high
    cards (which win tricks others dump their bites on)."""
    if card in BIG_BITES:
        return 20
    return card.rank + (10 if card.suit == SNAKE else 0)


def expected_bites(hand: list[Card], players: int) -> float:
    """A rough estimate of the bites this hand will take in the hunt."""
    estimate = 0.0
    for card in hand:
        if card.suit == SNAKE and card.rank >= 6:
            estimate += players * (card.rank - 5) / 4  # a high snake wins a trick of snakes
        elif card in BIG_BITES:
            estimate += 2.0  # often played into a trick it wins
        elif card.rank >= 8:
            estimate += 0.4 * (card.rank - 7)  # high cards collect what others dump
    return estimate


def relics_to_take(hand: list[Card], players: int, held: int, left: int) -> int:
    """Enough relics to cover the expected bites, while leaving the middle far from empty:
    whoever empties it curses everybody (S4 B)."""
    need = round(expected_bites(hand, players)) - held
    room = left - players  # keep a margin for the others' turns
    return max(0, min(need, room))


def choose_play(trick: tuple[Play, ...], playable: list[Card], last: bool) -> Card:
    safe = [card for card in playable if not bites_of(card)] or playable
    winning = highest_of_led(trick)
    if winning is None:  # leading: the lowest harmless card
        return min(safe, key=lambda c: (c.rank, c.suit == SNAKE))
    if playable[0].suit != winning.card.suit:  # void: dump the worst card on the winner
        return max(playable, key=danger)
    ducking = [card for card in playable if card.rank < winning.card.rank]
    if ducking:  # shed the worst card that still loses (a 7 of 3 bites first)
        return max(ducking, key=danger)
    if last:  # the trick is ours anyway: win it with the highest harmless card
        return max(safe, key=lambda c: c.rank)
    return min(safe, key=lambda c: c.rank)  # the lowest, hoping someone overtakes
