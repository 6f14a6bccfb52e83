"""Bot level against bot level, in the pure domain: how much more often a level wins.

A pairing A:B plays games with one seat of level A and every other seat of level B. Player
counts are used in turn (each game's min_players..max_players) and A's seat rotates round the
table. Every game has its own generator, seeded from `seed`, the game, the pairing and the game's
number, so a run gives the same figures whatever `processes`.

Win share: each game's winners (its `result`) share one win, 1/k each for k winners. A's win
share is its mean over the games; the fair share is what A would get if it were no better than
B, 1/n at n players (averaged over the games). The ratio is A's share over the fair share; its
95 % interval is a percentile bootstrap over games (games resampled with replacement, 2,000
times, the ratio recomputed each time). Where several seats win together (Ouroboros Trick: all
but the losers win) the ratio cannot exceed n/(n-1) even for a level that never loses, so the
loss ratio is printed too: A's loss rate over a B seat's loss rate (below 1 is better).

Time per decision: the wall time of each bot decision of a level (building its view, choosing,
deciding the command), mean and 95th percentile per game and level. A level that a game does not
have (yet) is reported as skipped. `iterations` K hands each bot decision Iterations(K), the
search budget of searching bots (others ignore it; without it they use their own default).
`chart` PATH draws the ratios as a PNG; with `chart_from` (runs' latest.json files, a later
file's row replacing an earlier one's for the same game and pairing) it plays nothing and draws
those."""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bot_strength.games import SETTINGS, decision_times, play, run_jobs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from domain.games import GAME_TYPES

BOOTSTRAP_RESAMPLES = 2_000
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
    seed = f"{job.seed}/{job.game}/{job.level_a}:{job.level_b}/{job.number}"
    played = play(job.game, levels, seed, job.iterations)
    result = game_type.view(played.table.game, None)["result"]
    winners, losers = result["winners"], result["losers"]
    return GameRecord(
        game=job.game,
        pairing=pairing_name(job.level_a, job.level_b),
        players=players,
        seat_a=seat_a,
        share_a=1 / len(winners) if seat_a in winners else 0.0,
        lost_a=seat_a in losers,
        lost_b=sum(1 for seat in losers if seat != seat_a),
        seconds=played.seconds,
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


def plan(s: Settings) -> tuple[list[Job], list[dict[str, str]]]:
    """The games to play, and the pairings skipped because a game lacks a level."""
    jobs: list[Job] = []
    skipped: list[dict[str, str]] = []
    for game in s["games_of"] or sorted(GAME_TYPES):
        levels = GAME_TYPES[game].bot_levels
        for a, b in (pairing.split(":") for pairing in s["pairings"]):
            missing = [level for level in (a, b) if level not in levels]
            if missing:
                reason = f"no level {', '.join(missing)} (has {', '.join(levels)})"
                skipped.append({"game": game, "pairing": pairing_name(a, b), "reason": reason})
                continue
            jobs += [Job(game, a, b, i, s["seed"], s["iterations"]) for i in range(s["games"])]
    return jobs, skipped


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
    timings = {
        game: decision_times(r.seconds for r in group) for game, group in sorted(by_game.items())
    }
    return {"results": results, "skipped": list(skipped), "decision_time": timings}


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
        xs: list[float] = []
        ys: list[float] = []
        errors: list[list[float]] = [[], []]
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
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        figures = json.loads(path.read_text())
        iterations = figures.get("settings", {}).get("iterations")
        for row in figures["results"]:
            rows[row["game"], row["pairing"]] = {**row, "iterations": iterations}
    return {"results": [rows[key] for key in sorted(rows)]}


def _game_label(game: str, rows: Sequence[dict[str, Any]]) -> str:
    """The game's name, and the search budgets its rows were played at when they say."""
    budgets = sorted({row["iterations"] for row in rows if row["game"] == game
                      and row.get("iterations") is not None})  # fmt: skip
    name = game.replace("_", " ")
    return f"{name}\n({', '.join(map(str, budgets))} iterations)" if budgets else name


def run(context: Context, s: Settings) -> Figures:
    if s["chart_from"]:
        chart(merged_runs([Path(p) for p in s["chart_from"]]), Path(s["chart"]))
        return {}
    jobs, skipped = plan(s)
    figures = report(run_jobs("tournament", play_game, jobs, s["processes"]), skipped, s["seed"])
    if s["chart"] and figures["results"]:
        chart(figures, Path(s["chart"]))
    rows = figures["results"]
    assert isinstance(rows, list)
    for row in rows:
        figures[f"{row['game']}_{row['pairing']}_ratio"] = row["ratio"]
        figures[f"{row['game']}_{row['pairing']}_ratio_low"] = row["ratio_low"]
    return figures


BENCHMARK = Benchmark(
    name="tournament",
    about="one seat of a bot level against seats of another, pure domain: the win share",
    run=run,
    settings=SETTINGS
    | {
        "games": (400, 2),
        "pairings": ["strong:basic", "basic:random"],
        "chart": "",
        "chart_from": [],
    },
    goals=[
        goal
        for game in sorted(GAME_TYPES)
        for goal in (
            Goal(
                f"{game}_strong:basic_ratio",
                ">=",
                GOAL_RATIO,
                "x",
                f"`strong` against `basic`, {game}: win share >= 1.5 x fair",
            ),
            Goal(
                f"{game}_strong:basic_ratio_low",
                ">=",
                1.2,
                "x",
                "its interval's lower end >= 1.2 x",
            ),
            Goal(
                f"{game}_basic:random_ratio",
                ">=",
                GOAL_RATIO,
                "x",
                f"`basic` against `random`, {game}: win share >= 1.5 x fair",
            ),
        )
    ],
)  # fmt: skip
