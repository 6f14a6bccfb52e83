"""The strong Ouroboros Trick bot: perfect-information Monte Carlo from the seat's view alone.

Hidden are the other hands, the other pools and the discard pile under its top card. Each world
deals the cards we cannot see among them by their public sizes (suits a seat has shown it lacks
in the trick now being played respected), and every candidate -- a card to play, or which cards
to discard -- is played out in the same worlds, every seat as the basic bot, to the end of the
game. The move with the best share of the victory is kept.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from domain.games.ouroboros_trick.bots import choose_discard, choose_play
from domain.games.ouroboros_trick.simulator import Game, shown
from domain.games.ouroboros_trick.state import deck_for
from domain.kit.budget import Budget, Iterations
from domain.kit.cards import Card, cards_json
from domain.kit.game_type import Rng
from domain.kit.templates import seat_templates
from domain.search import flat
from domain.search.views import cards_of, pairs, plays_of
from domain.search.worlds import deal_hidden, voids_in

DEFAULT_ITERATIONS = 200


def strong_bot(view: dict[str, Any], rng: Rng, budget: Budget | None = None) -> dict[str, Any]:
    budget = budget or Iterations(DEFAULT_ITERATIONS)
    template = seat_templates(view)[0]
    me = view["you"]["seat"]
    hand = shown(cards_of(template["cards"]))
    if template["type"] == "discard":
        options = discard_candidates(hand, template["count"])
        chosen = flat.choose(
            options, partial(world, view), partial(_after_discard, me), rng, budget
        )
        return {"type": "discard", "cards": cards_json(chosen)}
    trick = plays_of(view["trick"])
    default = choose_play(trick, hand, len(view["seats"]))
    moves = [default, *(card for card in hand if card != default)]
    card = flat.choose(moves, partial(world, view), partial(_after_play, me), rng, budget)
    return {"type": "play_card", "card": card.to_json()}


def discard_candidates(hand: list[Card], count: int) -> list[tuple[Card, ...]]:
    """The basic bot's lowest cards; the same with its highest discard kept instead of the next
    card up; and, for each suit, that suit's cards first (a void makes trumps)."""
    basic = choose_discard(hand, count)
    found = [tuple(basic)]
    kept = sorted((c for c in hand if c not in basic), key=lambda c: (c.rank, c.suit))
    for into in kept[:3]:
        for out in basic[-2:]:
            found.append(tuple(into if c == out else c for c in basic))
    lengths = Counter(card.suit for card in hand)
    for suit in sorted(lengths):
        first = [c for c in hand if c.suit == suit]
        rest = [c for c in basic if c.suit != suit] + [c for c in kept if c.suit != suit]
        found.append(tuple((first + rest)[:count]))
    unique = list(dict.fromkeys(tuple(sorted(cards)) for cards in found if len(cards) == count))
    default = tuple(sorted(basic))
    return [default, *(cards for cards in unique if cards != default)]


def world(view: dict[str, Any], rng: Rng) -> Game:
    """The game now, with what we cannot see dealt by its public sizes."""
    n, me, seats = len(view["seats"]), view["you"]["seat"], view["seats"]
    hand, pool = cards_of(view["you"]["hand"]), cards_of(view["you"]["pool"])
    trick = plays_of(view["trick"])
    seen = set(hand) | set(pool) | {play.card for play in trick}
    if view["discard_top"]:
        seen.add(Card.from_json(view["discard_top"]))
    hidden = sorted(set(deck_for(n)) - seen)
    counts = {s: seats[s]["hand_count"] for s in range(n) if s != me}
    # Only the trick now being played shows voids: a pool taken since may have refilled one.
    hands, rest = deal_hidden(hidden, counts, rng, voids=voids_in([pairs(trick)]))
    pools: list[list[Card]] = [[] for _ in range(n)]
    for s in range(n):
        if s != me:
            pools[s], rest = rest[: seats[s]["pool_count"]], rest[seats[s]["pool_count"] :]
    hands[me], pools[me] = hand, pool
    pending = view["pending_discard"]
    return Game(
        n,
        [shown(hands[s]) for s in range(n)],
        pools,
        view["leader"],
        list(trick),
        (pending["seat"], pending["count"]) if pending else None,
    )


def _after_play(me: int, start: Game, card: Card) -> float:
    game = start.copy()
    game.play(me, card)
    game.finish()
    return game.share(me)


def _after_discard(me: int, start: Game, cards: tuple[Card, ...]) -> float:
    game = start.copy()
    game.discard(me, list(cards))
    game.finish()
    return game.share(me)
