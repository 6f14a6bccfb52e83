"""Poker hand evaluations per second: our ranking (domain/shared/poker.py) against `treys` on
the same random 7-card hands, each in its native form built before the clock starts; both use
the 1..7462 scale, so every hand's values are checked against each other too."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from treys import Card as TreysCard
from treys import Evaluator

from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from bench.support.stats import Progress
from domain.games.saint_poker.state import DECK
from domain.kit.cards import Card
from domain.shared.poker import WORST, card_id, hand_strength, rank_hand, strength_of_ids

TREYS_RANKS = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def treys_card(card: Card) -> int:
    return int(TreysCard.new(f"{TREYS_RANKS.get(card.rank, card.rank)}{card.suit[0]}"))


def run(context: Context, s: Settings) -> Figures:
    rng = random.Random(s["seed"])
    ours = [rng.sample(DECK, 7) for _ in range(s["hands"])]
    theirs = [[treys_card(card) for card in hand] for hand in ours]
    ids = [[card_id(card) for card in hand] for hand in ours]
    evaluator = Evaluator()
    ways: dict[str, Callable[[int], Any]] = {
        "hand_strength": lambda i: hand_strength(ours[i]),
        "strength_of_ids": lambda i: strength_of_ids(ids[i]),
        "rank_hand": lambda i: rank_hand(ours[i]),
        "treys": lambda i: evaluator.evaluate(theirs[i][:2], theirs[i][2:]),
    }
    rates: dict[str, float] = {}
    values: dict[str, list[Any]] = {}
    with Progress(lambda t: f"[hands] {', '.join(rates) or 'first'} done ({t:.1f} s)"):
        for name, evaluate in ways.items():
            started = time.perf_counter()
            values[name] = [evaluate(i) for i in range(s["hands"])]
            rates[name] = s["hands"] / (time.perf_counter() - started)
    disagreements = sum(
        WORST + 1 - mine != treys or by_ids != mine
        for mine, by_ids, treys in zip(*(values[k] for k in ways if k != "rank_hand"), strict=True)
    )
    return {
        **{f"{name}_per_s": round(rate) for name, rate in rates.items()},
        **{f"{k}_vs_treys": round(rates[k] / rates["treys"], 2) for k in ways if k != "treys"},
        "values_disagreeing_with_treys": disagreements,
    }


BENCHMARK = Benchmark(
    name="hands",
    about="Saint Poker hand values per second, ours against treys",
    run=run,
    settings={"hands": (200_000, 2_000), "seed": 1},
    goals=[
        Goal("hand_strength_per_s", ">=", 1_000_000, "/s", "hand values >= 1 M/s"),
        Goal("hand_strength_vs_treys", ">=", 15, "x", "hand values >= 15 x treys"),
        Goal("values_disagreeing_with_treys", "==", 0, about="every value agrees with treys"),
    ],
)  # fmt: skip
