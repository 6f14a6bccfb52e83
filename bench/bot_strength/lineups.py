"""Mixed tables in the pure domain: one seat of each level of a lineup at every table, as the
rated tables of `rating_levels` seat them, in each of their orders in turn; do the levels finish
in their order? Per game type: how often each level finished above each other (a shared place
counts half; 95 % Wilson interval), and each level's rating after the games, rated in order as
the server rates them (events/ratings.py), with whether the displayed ratings follow the lineup.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from bench.bot_strength import games
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from domain.games import GAME_TYPES
from domain.tables.rated_games import RatedResult
from events.ratings import Rating, rate

Z95 = 1.96


@dataclass
class Record:
    game: str
    number: int
    levels: tuple[str, ...]  # each seat's level
    ranks: tuple[int, ...]  # each seat's place, 1 the best (the game's own ranking, G7)
    seconds: dict[str, list[float]]  # level -> each of its decisions' time


def seating(lineup: Sequence[str], number: int) -> tuple[str, ...]:
    """The lineup's levels round the table: every order of them in turn."""
    orders = list(permutations(lineup))
    return orders[number % len(orders)]


def play_game(job: games.Job) -> Record:
    levels = seating(job.levels, job.number)
    ended, seconds = games.play(job, levels, ",".join(job.levels))
    ranks = GAME_TYPES[job.game].ranking(ended, len(levels))
    return Record(job.game, job.number, levels, ranks, seconds)


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
    figures: Figures = {}
    for game, group in games.grouped(records, lambda r: r.game):
        rated = ratings(group)
        shown = {level: rated[level] for level in lineup}
        figures[game] = {
            "games": len(group),
            **{
                f"{a}_above_{b}": [round(x, 3) for x in above_share(group, a, b)]
                for a, b in combinations(lineup, 2)
            },
            "ratings": {
                level: [round(x, 2) for x in (r.display, r.mu, r.sigma)]
                for level, r in shown.items()
            },
            "ordered": games.descending([r.display for r in shown.values()]),
            "decision_time": games.decision_times(r.seconds for r in group),
        }
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
        else:
            jobs += games.jobs_of(s, game, lineup)
    records = games.run_jobs("lineups", play_game, jobs, s["processes"])
    return report(records, lineup) | {"skipped": skipped}


BENCHMARK = Benchmark(
    name="lineups",
    about="one seat of each bot level at every table, pure domain: who finishes above whom",
    run=run,
    settings=games.SETTINGS | {"games": (200, 2), "lineup": list(games.LEVELS)},
    goals=[
        Goal("ratings_in_lineup_order", "==", True, about="the displayed ratings in the lineup's "
            "order (strong > basic > random) in every game"),
    ],
)  # fmt: skip
