"""Mixed tables in the pure domain: one seat of each level of a lineup at every table, as the
rated tables of `bench.rating_levels` seat them; do the levels finish in their order?

    .venv/bin/python -m bench.lineups --game st_patrick --games 300 --iterations 200
    .venv/bin/python -m bench.lineups --lineup strong,basic,random --games 200 --processes 2

Each game seats the lineup's levels (so it has as many players as the lineup has levels) in
one of their orders round the table, in turn by the game's number, and ends with the game's own
ranking (G7: `GameType.ranking`, as ratings take it). Every game has its own generator, seeded
from --seed, the game and its number, so a run gives the same figures whatever --processes.

Printed per game type:
- for each pair of levels A, B: how often A finished above B (a shared place counts half), with
  a 95 % Wilson interval;
- each level's rating after every game was rated in order of its number, one rated identity
  per level, exactly as the server rates them (events/ratings.py: openskill's Plackett-Luce),
  and whether the displayed ratings (mu - 3 sigma) are in the lineup's order.

--iterations K hands each bot decision Iterations(K) (searching bots only; without it they use
their own default).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from bench.stats import Progress, percentile
from domain.games import GAME_TYPES
from domain.kit.budget import Iterations
from domain.kit.outcome import GameEnded
from domain.tables.rated_games import RatedResult
from domain.tables.selfplay import bot_table, steps
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
    game_type = GAME_TYPES[job.game]
    levels = seating(job.lineup, job.number)
    rng = random.Random(f"{job.seed}/{job.game}/{','.join(job.lineup)}/{job.number}")
    budget = None if job.iterations is None else (lambda: Iterations(job.iterations or 0))
    seconds: dict[str, list[float]] = defaultdict(list)
    table, _ = bot_table(game_type, levels)
    ended: GameEnded | None = None
    decisions = steps(table, rng, budget)
    while True:
        started = time.perf_counter()
        step = next(decisions, None)
        if step is None:
            break
        if step.seat is not None:
            seconds[levels[step.seat]].append(time.perf_counter() - started)
        ended = next((e for e in step.events if isinstance(e, GameEnded)), ended)
    if ended is None:
        raise RuntimeError(f"{job.game} game {job.number} ended without GameEnded")
    ranks = game_type.ranking(ended, len(levels))
    return Record(job.game, job.number, levels, ranks, dict(seconds))


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


def report(records: Sequence[Record], lineup: Sequence[str]) -> bool:
    """Prints each game's figures; whether the displayed ratings follow the lineup in all."""
    by_game: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_game[record.game].append(record)
    every = True
    for game, group in sorted(by_game.items()):
        print(f"\n{game}: {len(group)} games of {len(lineup)} seats ({', '.join(lineup)})")
        for a, b in combinations(lineup, 2):
            share, low, high = above_share(group, a, b)
            print(f"  {a} above {b}: {share:.3f} ({low:.3f}-{high:.3f})")
        rated = ratings(group)
        shown = [rated[level] for level in lineup]
        ordered = all(x.display > y.display for x, y in zip(shown, shown[1:], strict=False))
        every = every and ordered
        cells = ", ".join(
            f"{level} {r.display:.2f} ({r.mu:.2f}, {r.sigma:.2f})"
            for level, r in zip(lineup, shown, strict=True)
        )
        print(f"  ratings, display (mu, sigma): {cells}: {'ordered' if ordered else 'NOT ordered'}")
        for level in lineup:
            times = [t for r in group for t in r.seconds.get(level, [])]
            if times:
                print(
                    f"  {level:<8} {len(times):>6} decisions, mean"
                    f" {1000 * sum(times) / len(times):7.2f} ms, p95"
                    f" {1000 * percentile(times, 95):7.2f} ms"
                )
    return every


def run(jobs: Sequence[Job], processes: int) -> list[Record]:
    records: list[Record] = []
    with Progress(lambda t: f"lineups: {len(records)}/{len(jobs)} games in {t:.0f} s"):
        if processes <= 1:
            records.extend(play_game(job) for job in jobs)
        else:
            with multiprocessing.Pool(processes) as pool:
                records.extend(pool.imap_unordered(play_game, jobs, chunksize=2))
    return records


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--lineup", default="strong,basic,random", help="levels, best first")
    p.add_argument("--games", type=int, default=200, help="games per game type")
    p.add_argument("--game", action="append", choices=sorted(GAME_TYPES), help="only these")
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, help="search budget per decision: Iterations(K)")
    args = p.parse_args(argv)
    lineup = tuple(level.strip() for level in args.lineup.split(","))
    jobs = []
    for game in args.game or sorted(GAME_TYPES):
        game_type = GAME_TYPES[game]
        missing = [level for level in lineup if level not in game_type.bot_levels]
        if missing or not game_type.min_players <= len(lineup) <= game_type.max_players:
            print(f"{game}: skipped (levels {game_type.bot_levels}, {game_type.min_players}-"
                  f"{game_type.max_players} players)")  # fmt: skip
            continue
        jobs += [Job(game, lineup, i, args.seed, args.iterations) for i in range(args.games)]
    started = time.perf_counter()
    records = run(jobs, args.processes)
    ordered = report(records, lineup)
    seconds = time.perf_counter() - started
    verdict = "yes" if ordered else "NO"
    print(
        f"\n{len(records)} games in {seconds:.1f} s; displayed ratings in the lineup's order"
        f" in every game: {verdict}"
    )
    return 0 if ordered else 1


if __name__ == "__main__":
    raise SystemExit(main())
