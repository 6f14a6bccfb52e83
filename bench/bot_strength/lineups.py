"""Mixed tables in the pure domain: one seat of each level of a lineup at every table, as the
rated tables of `rating_levels` seat them; do the levels finish in their order?

Each game seats the lineup's levels (so it has as many players as the lineup has levels) in
one of their orders round the table, in turn by the game's number, and ends with the game's own
ranking (G7: `GameType.ranking`, as ratings take it). Every game has its own generator, seeded
from `seed`, the game and its number, so a run gives the same figures whatever `processes`.

Per game type:
- for each pair of levels A, B: how often A finished above B (a shared place counts half), with
  a 95 % Wilson interval;
- each level's rating after every game was rated in order of its number, one rated identity
  per level, exactly as the server rates them (events/ratings.py: openskill's Plackett-Luce),
  and whether the displayed ratings (mu - 3 sigma) are in the lineup's order.

`iterations` K hands each bot decision Iterations(K) (searching bots only; without it they use
their own default).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from bench.bot_strength.games import LEVELS, SETTINGS, decision_times, play, run_jobs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from domain.games import GAME_TYPES
from domain.tables.rated_games import RatedResult
from events.ratings import Rating, rate

Z95 = 1.96


@dataclass(frozen=True)
class Job:
    game: str
    lineup: tuple[str, ...]
    number: int
    seed: int
    iterations: int | None = None


@dataclass
class Record:
    game: str
    number: int
    levels: tuple[str, ...]  # each seat's level
    ranks: tuple[int, ...]  # each seat's place, 1 the best
    seconds: dict[str, list[float]]  # level -> each of its decisions' time


def seating(lineup: Sequence[str], number: int) -> tuple[str, ...]:
    """The lineup's levels round the table: every order of them in turn."""
    orders = list(permutations(lineup))
    return orders[number % len(orders)]


def play_game(job: Job) -> Record:
    levels = seating(job.lineup, job.number)
    seed = f"{job.seed}/{job.game}/{','.join(job.lineup)}/{job.number}"
    played = play(job.game, levels, seed, job.iterations)
    if played.ended is None:
        raise RuntimeError(f"{job.game} game {job.number} ended without GameEnded")
    ranks = GAME_TYPES[job.game].ranking(played.ended, len(levels))
    return Record(job.game, job.number, levels, ranks, played.seconds)


def above_share(records: Sequence[Record], a: str, b: str) -> tuple[float, float, float]:
    """How often level a finished above level b (a tie counts half), with a 95 % Wilson
    interval."""
    points = 0.0
    for record in records:
        rank_a, rank_b = record.ranks[record.levels.index(a)], record.ranks[record.levels.index(b)]
        points += 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
    n = len(records)
    share = points / n
    centre = (share + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return share, centre - half, centre + half


def ratings(records: Sequence[Record]) -> dict[str, Rating]:
    """Every level's rating after the games, rated in order of their numbers, one rated
    identity per level (as the server's bot levels are)."""
    current: dict[str, Rating] = {}
    for record in sorted(records, key=lambda r: r.number):
        current.update(rate(RatedResult(record.game, record.levels, record.ranks), current))
    return current


def report(records: Sequence[Record], lineup: Sequence[str]) -> Figures:
    """Per game: how often each level finished above each other, the levels' ratings, their
    decision times; and whether the displayed ratings follow the lineup in every game."""
    by_game: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_game[record.game].append(record)
    figures: Figures = {}
    for game, group in sorted(by_game.items()):
        rated = ratings(group)
        shown = [rated[level] for level in lineup]
        figures[game] = {
            "games": len(group),
            **{f"{a}_above_{b}": [round(x, 3) for x in above_share(group, a, b)]
               for a, b in combinations(lineup, 2)},
            "ratings": {level: [round(r.display, 2), round(r.mu, 2), round(r.sigma, 2)]
                        for level, r in zip(lineup, shown, strict=True)},
            "ordered": all(x.display > y.display for x, y in zip(shown, shown[1:], strict=False)),
            "decision_time": decision_times(r.seconds for r in group),
        }  # fmt: skip
    figures["ratings_in_lineup_order"] = all(f["ordered"] for f in figures.values())
    return figures


def run(context: Context, s: Settings) -> Figures:
    lineup = tuple(level.strip() for level in s["lineup"])
    jobs, skipped = [], []
    for game in s["games_of"] or sorted(GAME_TYPES):
        game_type = GAME_TYPES[game]
        missing = [level for level in lineup if level not in game_type.bot_levels]
        if missing or not game_type.min_players <= len(lineup) <= game_type.max_players:
            skipped.append(game)
            continue
        jobs += [Job(game, lineup, i, s["seed"], s["iterations"]) for i in range(s["games"])]
    records = run_jobs("lineups", play_game, jobs, s["processes"])
    return report(records, lineup) | {"skipped": skipped}


BENCHMARK = Benchmark(
    name="lineups",
    about="one seat of each bot level at every table, pure domain: who finishes above whom",
    run=run,
    settings=SETTINGS | {"games": (200, 2), "lineup": list(LEVELS)},
    goals=[
        Goal("ratings_in_lineup_order", "==", True, about="the displayed ratings in the lineup's "
            "order (strong > basic > random) in every game"),
    ],
)  # fmt: skip
