"""Bot level against bot level, in the pure domain: how much more often a level wins.

    .venv/bin/python -m bench.tournament --pairings basic:random --processes 2
    .venv/bin/python -m bench.tournament --pairings strong:basic --game saint_poker \\
        --games 100 --iterations 200 --chart docs/tournament.png --json tournament.json
    .venv/bin/python -m bench.tournament --chart-from a.json b.json --chart docs/tournament.png

A pairing A:B plays games with one seat of level A and every other seat of level B. Player
counts are used in turn (each game's min_players..max_players) and A's seat rotates round the
table. Every game has its own generator, seeded from --seed, the game, the pairing and the game's
number, so a run gives the same figures whatever --processes.

Win share: each game's winners (its `result`) share one win, 1/k each for k winners. A's win
share is its mean over the games; the fair share is what A would get if it were no better than
B, 1/n at n players (averaged over the games). The ratio is A's share over the fair share; its
95 % interval is a percentile bootstrap over games (games resampled with replacement, 2,000
times, the ratio recomputed each time). Where several seats win together (Ouroboros Trick: all
but the losers win) the ratio cannot exceed n/(n-1) even for a level that never loses, so the
loss ratio is printed too: A's loss rate over a B seat's loss rate (below 1 is better).

Time per decision: the wall time of each bot decision of a level (building its view, choosing,
deciding the command), mean and 95th percentile per game and level. A level that a game does not
have (yet) is reported as skipped. --iterations K hands each bot decision Iterations(K), the
search budget of searching bots (others ignore it; without it they use their own default).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.stats import Progress, percentile
from domain.games import GAME_TYPES
from domain.kit.budget import Iterations
from domain.tables.selfplay import bot_table, steps

BOOTSTRAP_RESAMPLES = 2_000
BAR_WIDTH = 30
GOAL_RATIO = 1.5  # issue 17: a level against the one below, in every game


@dataclass(frozen=True)
class Job:
    game: str
    level_a: str
    level_b: str
    number: int  # the game's number within its game and pairing
    seed: int
    iterations: int | None = None


@dataclass
class GameRecord:
    game: str
    pairing: str
    players: int
    seat_a: int
    share_a: float  # A's part of the win: 1/k if A is one of k winners, else 0
    lost_a: bool
    lost_b: int  # how many B seats lost
    seconds: dict[str, list[float]] = field(default_factory=dict)  # level -> each decision


def pairing_name(level_a: str, level_b: str) -> str:
    return f"{level_a}:{level_b}"


def play_game(job: Job) -> GameRecord:
    """One game: A's seat and the player count follow from the game's number."""
    game_type = GAME_TYPES[job.game]
    counts = list(range(game_type.min_players, game_type.max_players + 1))
    players = counts[job.number % len(counts)]
    seat_a = (job.number // len(counts)) % players
    levels = [job.level_b] * players
    levels[seat_a] = job.level_a
    rng = random.Random(f"{job.seed}/{job.game}/{job.level_a}:{job.level_b}/{job.number}")
    budget = None if job.iterations is None else (lambda: Iterations(job.iterations or 0))
    seconds: dict[str, list[float]] = defaultdict(list)
    table, _ = bot_table(game_type, levels)
    decisions = steps(table, rng, budget)
    while True:
        started = time.perf_counter()
        step = next(decisions, None)
        if step is None:
            break
        if step.seat is not None:
            seconds[levels[step.seat]].append(time.perf_counter() - started)
        table = step.table
    result = game_type.view(table.game, None)["result"]
    winners, losers = result["winners"], result["losers"]
    return GameRecord(
        game=job.game,
        pairing=pairing_name(job.level_a, job.level_b),
        players=players,
        seat_a=seat_a,
        share_a=1 / len(winners) if seat_a in winners else 0.0,
        lost_a=seat_a in losers,
        lost_b=sum(1 for seat in losers if seat != seat_a),
        seconds=dict(seconds),
    )


def ratio_of(records: Sequence[GameRecord]) -> float:
    fair = sum(1 / r.players for r in records)
    return sum(r.share_a for r in records) / fair if fair else math.nan


def bootstrap_interval(records: Sequence[GameRecord], rng: random.Random) -> tuple[float, float]:
    """95 % percentile bootstrap interval of the ratio, resampling whole games."""
    shares = [r.share_a for r in records]
    fairs = [1 / r.players for r in records]
    n = len(records)
    ratios = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        picks = rng.choices(range(n), k=n)
        ratios.append(sum(shares[i] for i in picks) / sum(fairs[i] for i in picks))
    ratios.sort()
    return ratios[int(0.025 * (len(ratios) - 1))], ratios[math.ceil(0.975 * (len(ratios) - 1))]


def summarize(records: Sequence[GameRecord], seed: int = 1) -> dict[str, object]:
    """The figures of one game and pairing."""
    n = len(records)
    share = sum(r.share_a for r in records) / n
    fair = sum(1 / r.players for r in records) / n
    low, high = bootstrap_interval(records, random.Random(seed))
    b_seats = sum(r.players - 1 for r in records)
    loss_a = sum(r.lost_a for r in records) / n
    loss_b = sum(r.lost_b for r in records) / b_seats
    return {
        "games": n,
        "share": round(share, 4),
        "fair_share": round(fair, 4),
        "ratio": round(share / fair, 3),
        "ratio_low": round(low, 3),
        "ratio_high": round(high, 3),
        "loss_rate_a": round(loss_a, 4),
        "loss_rate_b": round(loss_b, 4),
        "loss_ratio": round(loss_a / loss_b, 3) if loss_b else None,
        "players": sorted({r.players for r in records}),
    }


def timing(records: Iterable[GameRecord]) -> dict[str, dict[str, float]]:
    """Per level: decisions, mean and p95 milliseconds per decision."""
    by_level: dict[str, list[float]] = defaultdict(list)
    for record in records:
        for level, seconds in record.seconds.items():
            by_level[level].extend(seconds)
    return {
        level: {
            "decisions": len(seconds),
            "mean_ms": round(1000 * sum(seconds) / len(seconds), 3),
            "p95_ms": round(1000 * percentile(seconds, 95), 3),
        }
        for level, seconds in sorted(by_level.items())
    }


def parse_pairings(text: str) -> list[tuple[str, str]]:
    pairs = []
    for part in text.split(","):
        a, sep, b = part.strip().partition(":")
        if not sep or not a or not b:
            raise argparse.ArgumentTypeError(f"a pairing is LEVEL:LEVEL, not {part!r}")
        pairs.append((a, b))
    return pairs


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=400, help="games per pairing per game")
    p.add_argument(
        "--pairings", type=parse_pairings, default=parse_pairings("strong:basic,basic:random"),
        help="A:B,... one seat of level A against seats of level B (default strong:basic,"
        "basic:random)",
    )  # fmt: skip
    p.add_argument("--game", action="append", choices=sorted(GAME_TYPES), help="only these")
    p.add_argument("--processes", type=int, default=1, help="worker processes")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, help="search budget per decision: Iterations(K)")
    p.add_argument("--json", type=Path, help="write the figures here")
    p.add_argument("--chart", type=Path, help="write a PNG chart of the ratios here")
    p.add_argument(
        "--chart-from", type=Path, nargs="+", metavar="JSON",
        help="play nothing: draw --chart from these runs' --json files (a later file's row\n"
        "replaces an earlier one's for the same game and pairing)",
    )  # fmt: skip
    return p.parse_args(argv)


def plan(args: argparse.Namespace) -> tuple[list[Job], list[dict[str, str]]]:
    """The games to play, and the pairings skipped because a game lacks a level."""
    jobs: list[Job] = []
    skipped: list[dict[str, str]] = []
    for game in args.game or sorted(GAME_TYPES):
        levels = GAME_TYPES[game].bot_levels
        for a, b in args.pairings:
            missing = [level for level in (a, b) if level not in levels]
            if missing:
                reason = f"no level {', '.join(missing)} (has {', '.join(levels)})"
                skipped.append({"game": game, "pairing": pairing_name(a, b), "reason": reason})
                continue
            jobs += [Job(game, a, b, i, args.seed, args.iterations) for i in range(args.games)]
    return jobs, skipped


def run(jobs: Sequence[Job], processes: int) -> list[GameRecord]:
    records: list[GameRecord] = []

    def render(seconds: float) -> str:
        done = len(records)
        filled = BAR_WIDTH * done // max(len(jobs), 1)
        eta = seconds / done * (len(jobs) - done) if done else math.nan
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        return f"tournament [{bar}] {done}/{len(jobs)} games, {seconds:.0f} s, eta {eta:.0f} s"

    with Progress(render):
        if processes <= 1:
            records.extend(play_game(job) for job in jobs)
        else:
            with multiprocessing.Pool(processes) as pool:
                records.extend(pool.imap_unordered(play_game, jobs, chunksize=4))
    return records


def report(
    records: Sequence[GameRecord], skipped: Sequence[dict[str, str]], seed: int
) -> dict[str, object]:
    groups: dict[tuple[str, str], list[GameRecord]] = defaultdict(list)
    for record in records:
        groups[record.game, record.pairing].append(record)
    results = [
        {"game": game, "pairing": pairing, **summarize(group, seed)}
        for (game, pairing), group in sorted(groups.items())
    ]
    by_game: dict[str, list[GameRecord]] = defaultdict(list)
    for record in records:
        by_game[record.game].append(record)
    timings = {game: timing(group) for game, group in sorted(by_game.items())}
    return {"results": results, "skipped": list(skipped), "decision_time": timings}


def print_report(figures: dict[str, object]) -> None:
    print(
        f"{'game':<18} {'A:B':<14} {'games':>5} {'share':>6} {'fair':>6} {'ratio':>6}"
        f"  {'95% interval':<13} {'loss ratio':>10}"
    )
    for row in figures["results"]:  # type: ignore[attr-defined]
        interval = f"{row['ratio_low']:.2f}-{row['ratio_high']:.2f}"
        loss = "-" if row["loss_ratio"] is None else f"{row['loss_ratio']:.2f}"
        print(
            f"{row['game']:<18} {row['pairing']:<14} {row['games']:>5} {row['share']:>6.3f}"
            f" {row['fair_share']:>6.3f} {row['ratio']:>5.2f}x  {interval:<13} {loss:>10}"
        )
    for skip in figures["skipped"]:  # type: ignore[attr-defined]
        print(f"{skip['game']:<18} {skip['pairing']:<14} skipped: {skip['reason']}")
    print("\ntime per decision (ms)")
    for game, levels in figures["decision_time"].items():  # type: ignore[attr-defined]
        for level, t in levels.items():
            print(
                f"{game:<18} {level:<8} decisions {t['decisions']:>7}"
                f"  mean {t['mean_ms']:>8.3f}  p95 {t['p95_ms']:>8.3f}"
            )


def chart(figures: dict[str, object], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = figures["results"]
    games = sorted({row["game"] for row in rows})  # type: ignore[attr-defined]
    pairings = sorted({row["pairing"] for row in rows})  # type: ignore[attr-defined]
    width = 0.8 / max(len(pairings), 1)
    fig, ax = plt.subplots(figsize=(2.2 * len(games) + 2, 4.5))
    for j, pairing in enumerate(pairings):
        xs, ys, errors = [], [], [[], []]
        for i, game in enumerate(games):
            for row in rows:  # type: ignore[attr-defined]
                if row["game"] == game and row["pairing"] == pairing:
                    xs.append(i + (j - (len(pairings) - 1) / 2) * width)
                    ys.append(row["ratio"])
                    errors[0].append(row["ratio"] - row["ratio_low"])
                    errors[1].append(row["ratio_high"] - row["ratio"])
        ax.bar(xs, ys, width, yerr=errors, capsize=4, label=pairing)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.axhline(GOAL_RATIO, color="grey", linewidth=0.8, linestyle=":", label=f"goal {GOAL_RATIO}x")
    ax.set_xticks(range(len(games)), [_game_label(game, rows) for game in games])  # type: ignore[arg-type]
    ax.set_ylabel("win share / fair share (95 % bootstrap)")
    ax.set_title("One seat of level A against seats of level B")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def merged_runs(paths: Sequence[Path]) -> dict[str, object]:
    """The result rows of several runs, one per game and pairing (the last file's), each
    with the search budget its run gave (`iterations`, None for the bots' own default)."""
    rows: dict[tuple[str, str], dict] = {}
    for path in paths:
        figures = json.loads(path.read_text())
        iterations = figures.get("settings", {}).get("iterations")
        for row in figures["results"]:
            rows[row["game"], row["pairing"]] = {**row, "iterations": iterations}
    return {"results": [rows[key] for key in sorted(rows)]}


def _game_label(game: str, rows: Sequence[dict]) -> str:
    """The game's name, and the search budgets its rows were played at when they say."""
    budgets = sorted({row["iterations"] for row in rows if row["game"] == game
                      and row.get("iterations") is not None})  # fmt: skip
    name = game.replace("_", " ")
    return f"{name}\n({', '.join(map(str, budgets))} iterations)" if budgets else name


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.chart_from:
        if not args.chart:
            raise SystemExit("--chart-from needs --chart PATH")
        chart(merged_runs(args.chart_from), args.chart)
        return 0
    jobs, skipped = plan(args)
    started = time.perf_counter()
    records = run(jobs, args.processes)
    figures = report(records, skipped, args.seed)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    figures["settings"] = {
        "games": args.games,
        "seed": args.seed,
        "iterations": args.iterations,
        "processes": args.processes,
    }
    print_report(figures)
    print(f"\n{len(records)} games in {figures['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if args.chart and figures["results"]:
        chart(figures, args.chart)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
