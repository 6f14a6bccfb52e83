"""Helpers for the strong bots' tests: budgets small enough to be quick, decision points from
seeded self-play, and tables that differ from a seat's only in what that seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from domain.kit.budget import Iterations
from domain.kit.cards import Card
from domain.kit.game_type import GameType
from domain.tables import selfplay
from domain.tables import table as tables

# Each game's hidden card piles other than the other seats' hands, as (field, keep): `keep` is
# how many cards at the end of the pile a seat sees (Ouroboros shows the discard pile's top).
HIDDEN: dict[str, tuple[tuple[str, int], ...]] = {
    "trick_and_snipers": (("leftover", 0),),
    "st_patrick": (),
    "ouroboros_trick": (("discards", 1),),
    "saint_poker": (("deck", 0),),
}
PER_SEAT_HIDDEN = {"ouroboros_trick": ("pools",)}  # other seats' face-down piles


def quick(game: GameType, iterations: int) -> GameType:
    """The game with its strong bot held to `iterations` whatever budget it is handed."""
    strong = game.bots["strong"]

    def bot(view: dict[str, Any], rng: Any, budget: Any = None) -> dict[str, Any]:
        return strong(view, rng, Iterations(iterations))

    return replace(game, bots={**game.bots, "strong": bot})


def decision_points(
    game: GameType, players: int, seed: int, every: int = 1
) -> Iterator[tuple[tables.Table, int]]:
    """(table, seat to act) along a seeded game of basic bots, every `every`-th one."""
    table, _ = selfplay.bot_table(game, ["basic"] * players)
    rng, count = random.Random(seed), 0
    for step in selfplay.steps(table, rng):
        table = step.table
        if table.status != "active":
            continue
        for seat in game.to_act(table.game):
            count += 1
            if count % every == 0:
                yield table, seat


def hidden_shuffled(table: tables.Table, seat: int, rng: random.Random) -> tables.Table:
    """The same table with every card `seat` cannot see dealt anew among the places it cannot
    see into (the other hands, the hidden piles), each place keeping its size."""
    game = table.game
    places: list[tuple[str, int | None, int, int]] = []  # (field, seat or None, start, size)
    for other in range(game.players):
        if other != seat:
            places.append(("hands", other, 0, len(game.hands[other])))
            for name in PER_SEAT_HIDDEN.get(table.game_type.id, ()):
                places.append((name, other, 0, len(getattr(game, name)[other])))
    for name, keep in HIDDEN[table.game_type.id]:
        pile = getattr(game, name)
        places.append((name, None, 0, max(0, len(pile) - keep)))
    cards: list[Card] = []
    for name, other, start, size in places:
        pile = getattr(game, name)[other] if other is not None else getattr(game, name)
        cards.extend(pile[start : start + size])
    rng.shuffle(cards)
    changes: dict[str, Any] = {}
    for name, other, _start, size in places:
        dealt, cards = tuple(cards[:size]), cards[size:]
        current = changes.get(name, getattr(game, name))
        if other is None:
            changes[name] = dealt + tuple(current[size:])
        else:
            changes[name] = (*current[:other], dealt, *current[other + 1 :])
    return replace(table, game=replace(game, **changes))
