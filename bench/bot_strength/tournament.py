"""Bot level against bot level, in the pure domain: how much more often a level wins.

A pairing A:B seats one A and B in every other seat, the game's player counts in turn and A's
seat round the table. A game's winners share one win (1/k each); A's ratio is its mean share
over the fair share (1/n at n players), with a 95 % percentile bootstrap interval over games.
Where all but the losers win (Ouroboros Trick) the ratio cannot exceed n/(n-1) even for a level
that never loses, so the loss ratio (A's loss rate over a B seat's; below 1 is better) is given
too, and each level's time per decision. `chart` PATH draws the ratios (docs/tournament.png);
with `chart_from` (runs' latest.json files, a later row replacing an earlier one for the same
game and pairing) it plays nothing and draws those."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bot_strength.games import SETTINGS, Job, decision_times, grouped, jobs_of, play, run_jobs
from bench.support.benchmark import Benchmark, Context, Figures, Goal, Settings
from domain.games import GAME_TYPES

BOOTSTRAP_RESAMPLES = 2_000
PAIRINGS = ["strong:basic", "basic:random"]
GOAL_RATIO = 1.5  # issue 17: a level against the one below, in every game
GOALS = (  # each game's: the figure after its name, the least it may be, what it says
    ("strong:basic_ratio", GOAL_RATIO, "`strong` against `basic`, {}: win share >= 1.5 x fair"),
    ("strong:basic_ratio_low", 1.2, "its interval's lower end >= 1.2 x"),
    ("basic:random_ratio", GOAL_RATIO, "`basic` against `random`, {}: win share >= 1.5 x fair"),
)


@dataclass
class GameRecord:
    game: str
    pairing: str
    players: int
    seat_a: int
    share_a: float  # A's part of the win: 1/k if A is one of k winners, else 0
    lost_a: bool
    lost_b: int  # how many B seats lost
    seconds: dict[str, list[float]]  # level -> each of its decisions' time


def play_game(job: Job) -> GameRecord:
    """One game: A's seat and the player count follow from the game's number."""
    game_type = GAME_TYPES[job.game]
    level_a, level_b = job.levels
    counts = range(game_type.min_players, game_type.max_players + 1)
    players = counts[job.number % len(counts)]
    seat_a = (job.number // len(counts)) % players
    pairing = ":".join(job.levels)
    seats = [level_a if seat == seat_a else level_b for seat in range(players)]
    ended, seconds = play(job, seats, pairing)
    share_a = 1 / len(ended.winners) if seat_a in ended.winners else 0.0
    lost_a = seat_a in ended.losers
    lost_b = sum(1 for seat in ended.losers if seat != seat_a)
    return GameRecord(job.game, pairing, players, seat_a, share_a, lost_a, lost_b, seconds)


def bootstrap_interval(records: Sequence[GameRecord], rng: random.Random) -> tuple[float, float]:
    """95 % percentile bootstrap interval of the ratio, resampling whole games."""
    shares = [r.share_a for r in records]
    fairs = [1 / r.players for r in records]
    ratios = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        picks = rng.choices(range(len(records)), k=len(records))
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
        for pairing in s["pairings"]:
            missing = [level for level in pairing.split(":") if level not in levels]
            if missing:
                reason = f"no level {', '.join(missing)} (has {', '.join(levels)})"
                skipped.append({"game": game, "pairing": pairing, "reason": reason})
            else:
                jobs += jobs_of(s, game, tuple(pairing.split(":")))
    return jobs, skipped


def report(records: Sequence[GameRecord], skipped: Sequence[dict[str, str]], seed: int) -> Figures:
    results = [
        {"game": game, "pairing": pairing, **summarize(group, seed)}
        for (game, pairing), group in grouped(records, lambda r: (r.game, r.pairing))
    ]
    timings = {
        game: decision_times(r.seconds for r in group)
        for game, group in grouped(records, lambda r: r.game)
    }
    return {"results": results, "skipped": list(skipped), "decision_time": timings}


def chart(rows: Sequence[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = sorted({row["game"] for row in rows})
    pairings = sorted({row["pairing"] for row in rows})
    width = 0.8 / len(pairings)
    fig, ax = plt.subplots(figsize=(2.2 * len(games) + 2, 4.5))
    for j, pairing in enumerate(pairings):
        mine = [row for row in rows if row["pairing"] == pairing]
        xs = [games.index(row["game"]) + (j - (len(pairings) - 1) / 2) * width for row in mine]
        ratios = [row["ratio"] for row in mine]
        errors = [
            [row["ratio"] - row["ratio_low"] for row in mine],
            [row["ratio_high"] - row["ratio"] for row in mine],
        ]
        ax.bar(xs, ratios, width, yerr=errors, capsize=4, label=pairing)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.axhline(GOAL_RATIO, color="grey", linewidth=0.8, linestyle=":", label=f"goal {GOAL_RATIO}x")
    ax.set_xticks(range(len(games)), [_game_label(game, rows) for game in games])
    ax.set_ylabel("win share / fair share (95 % bootstrap)")
    ax.set_title("One seat of level A against seats of level B")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _game_label(game: str, rows: Sequence[dict[str, Any]]) -> str:
    """The game's name, and the search budgets its rows were played at when they say."""
    budgets = sorted({row["iterations"] for row in rows if row["game"] == game
                      and row.get("iterations") is not None})  # fmt: skip
    name = game.replace("_", " ")
    return f"{name}\n({', '.join(map(str, budgets))} iterations)" if budgets else name


def merged_runs(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The result rows of several runs, one per game and pairing (the last file's), each
    with the search budget its run gave (`iterations`, None for the bots' own default)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        figures = json.loads(path.read_text())
        iterations = figures.get("settings", {}).get("iterations")
        for row in figures["results"]:
            rows[row["game"], row["pairing"]] = {**row, "iterations": iterations}
    return [rows[key] for key in sorted(rows)]


def run(context: Context, s: Settings) -> Figures:
    if s["chart_from"]:
        chart(merged_runs([Path(p) for p in s["chart_from"]]), Path(s["chart"]))
        return {}
    jobs, skipped = plan(s)
    figures = report(run_jobs("tournament", play_game, jobs, s["processes"]), skipped, s["seed"])
    if s["chart"] and figures["results"]:
        chart(figures["results"], Path(s["chart"]))
    for row in figures["results"]:
        figures[f"{row['game']}_{row['pairing']}_ratio"] = row["ratio"]
        figures[f"{row['game']}_{row['pairing']}_ratio_low"] = row["ratio_low"]
    return figures


BENCHMARK = Benchmark(
    name="tournament",
    about="one seat of a bot level against seats of another, pure domain: the win share",
    run=run,
    settings=SETTINGS | {"games": (400, 2), "pairings": PAIRINGS, "chart": "", "chart_from": []},
    goals=[
        Goal(f"{game}_{figure}", ">=", target, "x", about.format(game))
        for game in sorted(GAME_TYPES)
        for figure, target, about in GOALS
    ],
)
