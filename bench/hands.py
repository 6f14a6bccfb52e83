"""Poker hand evaluations per second: our ranking (domain/shared/poker.py, phevaluator underneath)
against `treys`, on the same random 7-card hands in the same run.

    .venv/bin/python -m bench.hands
    .venv/bin/python -m bench.hands --hands 500000 --seed 7 --json hands.json

Each evaluator gets the hands in its own native form, built before the clock starts: ours takes
domain Cards, treys its integer cards (2 hole cards + a 5-card board). Measured: our
`hand_strength` (the comparable value alone, what scoring compares), our `strength_of_ids` (the
same value from ids worked out once with `card_id`, what playouts use), our `rank_hand` (value and
name, as a round's ranking shows), and treys' `Evaluator.evaluate`. Both libraries use the
same 1..7462 scale, so every hand's values are also checked against each other.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from treys import Card as TreysCard
from treys import Evaluator

from bench.stats import Progress
from domain.games.saint_poker.state import DECK
from domain.kit.cards import Card
from domain.shared.poker import WORST, card_id, hand_strength, rank_hand, strength_of_ids

TREYS_RANKS = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
CHUNK = 5_000  # hands between two progress updates


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--hands", type=int, default=200_000, help="random 7-card hands")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", type=Path, help="write the figures here")
    return p.parse_args(argv)


def treys_card(card: Card) -> int:
    return TreysCard.new(f"{TREYS_RANKS.get(card.rank, card.rank)}{card.suit[0]}")


def timed(
    name: str, evaluate: Callable[[int], object], count: int, done: dict[str, int]
) -> tuple[float, list]:
    """Evaluate hands 0..count-1 in chunks (so the progress line moves); seconds and results."""
    results: list = []
    started = time.perf_counter()
    for start in range(0, count, CHUNK):
        results += [evaluate(i) for i in range(start, min(start + CHUNK, count))]
        done[name] = len(results)
    return time.perf_counter() - started, results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    ours: list[Sequence[Card]] = [rng.sample(DECK, 7) for _ in range(args.hands)]
    theirs = [[treys_card(card) for card in hand] for hand in ours]
    ids = [[card_id(card) for card in hand] for hand in ours]
    evaluator = Evaluator()
    done = dict.fromkeys(("hand_strength", "strength_of_ids", "rank_hand", "treys"), 0)

    def render(seconds: float) -> str:
        parts = ", ".join(f"{name} {count}/{args.hands}" for name, count in done.items())
        return f"hands: {parts} ({seconds:.1f} s)"

    with Progress(render):
        strength_s, strengths = timed(
            "hand_strength", lambda i: hand_strength(ours[i]), args.hands, done
        )
        ids_s, id_strengths = timed(
            "strength_of_ids", lambda i: strength_of_ids(ids[i]), args.hands, done
        )
        named_s, _ = timed("rank_hand", lambda i: rank_hand(ours[i]), args.hands, done)
        treys_s, treys_values = timed(
            "treys", lambda i: evaluator.evaluate(theirs[i][:2], theirs[i][2:]), args.hands, done
        )
    disagreements = sum(
        WORST + 1 - ours_value != their_value or by_ids != ours_value
        for ours_value, by_ids, their_value in zip(
            strengths, id_strengths, treys_values, strict=True
        )
    )
    rates = {
        "hand_strength": args.hands / strength_s,
        "strength_of_ids": args.hands / ids_s,
        "rank_hand": args.hands / named_s,
        "treys": args.hands / treys_s,
    }
    figures = {
        "hands": args.hands,
        "ours_hand_strength_per_second": round(rates["hand_strength"]),
        "ours_strength_of_ids_per_second": round(rates["strength_of_ids"]),
        "ours_rank_hand_per_second": round(rates["rank_hand"]),
        "treys_per_second": round(rates["treys"]),
        "ratio_hand_strength_to_treys": round(rates["hand_strength"] / rates["treys"], 2),
        "ratio_strength_of_ids_to_treys": round(rates["strength_of_ids"] / rates["treys"], 2),
        "ratio_rank_hand_to_treys": round(rates["rank_hand"] / rates["treys"], 2),
        "values_disagreeing_with_treys": disagreements,
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if disagreements == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
