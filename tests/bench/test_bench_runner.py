"""bench/support/runner.py: goals as data give verdicts, a run's JSON says what was measured
and where, `report` rebuilds only the tables between its markers, and `--list` shows every
benchmark with its goals."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time

import pytest

from bench.support.benchmark import Benchmark, Context, Goal
from bench.support.runner import BLOCK, REPO, benchmarks, listing, main, record, rewrite, write

# `all --quick` on a 2-core machine, the services' starts included: 155-195 s here, the same
# code from day to day (its slowest: play_page 25-30 s, stream 20 s, history 18-19 s). The bound
# keeps the whole suite under its 20 minutes.
QUICK_SECONDS = 240


def test_a_goal_passes_fails_or_has_no_verdict_when_its_figure_was_not_measured():
    goal = Goal("p95_ms", "<", 250, "ms")

    assert goal.verdict({"p95_ms": 249.9}) == "PASS"
    assert goal.verdict({"p95_ms": 250}) == "FAIL"
    assert goal.verdict({}) == goal.verdict({"p95_ms": None}) == "n/a"
    assert goal.verdict({"p95_ms": math.nan}) == "n/a"
    assert Goal("kept", "==", True).verdict({"kept": False}) == "FAIL"


def test_a_goal_with_an_unknown_operator_is_refused():
    with pytest.raises(ValueError, match="unknown operator"):
        Goal("p95_ms", "~", 1)


def test_quick_settings_take_the_second_value_and_given_ones_win():
    mark = Benchmark("b", "a bench", lambda c, s: {}, settings={"games": (200, 4), "seed": 1})

    assert mark.resolved(quick=False) == {"games": 200, "seed": 1}
    assert mark.resolved(quick=True, given={"seed": 7, "games": None}) == {"games": 4, "seed": 7}


def measured(context: Context, settings: dict[str, object]) -> dict[str, object]:
    return {"p95_ms": 300.0, "count": settings["count"]}


MARK = Benchmark(
    "toy",
    "a toy bench",
    measured,
    goals=[Goal("p95_ms", "<", 250, "ms", "p95 < 250 ms"), Goal("count", ">=", 1)],
    settings={"count": (10, 1)},
)


def test_a_runs_json_holds_its_figures_verdicts_revision_and_machine(tmp_path):
    result = record(MARK, MARK.resolved(quick=True), Context("", quick=True), "python -m bench toy")
    path = write(json.loads(json.dumps(result)), tmp_path)

    written = json.loads(path.read_text())
    assert path == tmp_path / "toy" / "latest.json"
    assert written["figures"] == {"p95_ms": 300.0, "count": 1}
    assert [g["verdict"] for g in written["goals"]] == ["FAIL", "PASS"]
    assert written["verdict"] == "FAIL" and written["quick"] is True
    assert written["revision"] and written["command"] == "python -m bench toy"
    assert set(written["machine"]) >= {"cpus", "python", "platform"}


def test_a_benchmark_that_raises_is_recorded_as_an_error_not_a_verdict():
    def broken(context: Context, settings: dict[str, object]) -> dict[str, object]:
        raise RuntimeError("no such table")

    result = record(
        Benchmark("b", "broken", broken, goals=[Goal("x", "<", 1)]), {}, Context(""), ""
    )

    assert result["verdict"] == "error" and "no such table" in result["error"]
    assert [g["verdict"] for g in result["goals"]] == ["error"]


def test_the_report_rebuilds_the_marked_tables_of_full_runs_and_keeps_the_prose(tmp_path):
    full = record(MARK, MARK.resolved(quick=False), Context(""), "python -m bench toy")
    write(full, tmp_path)
    page = (
        "Prose before.\n\n<!-- bench toy -->\n| old |\n<!-- /bench -->\n\nProse between.\n\n"
        "<!-- bench unmeasured -->\n| kept |\n<!-- /bench -->\n"
    )

    text, rebuilt = rewrite(page, tmp_path)

    assert rebuilt == ["toy"]
    assert text.startswith("Prose before.\n\n<!-- bench toy -->\n| goal | figure | verdict |")
    assert "| p95 < 250 ms | 300.0 ms | FAIL |" in text and "`python -m bench toy`" in text
    assert "| old |" not in text
    assert "Prose between." in text and "| kept |" in text


def test_a_quick_run_leaves_the_docs_table_as_it_was(tmp_path):
    write(record(MARK, MARK.resolved(quick=True), Context("", quick=True), "q"), tmp_path)
    page = "<!-- bench toy -->\n| old |\n<!-- /bench -->\n"

    assert rewrite(page, tmp_path) == (page, [])


def test_every_benchmark_is_listed_with_its_goals():
    marks = benchmarks()
    text = listing(marks)

    assert {"actions", "stream", "soak", "floor", "deals", "public_log"} <= set(marks)
    assert "actions: concurrent games" in text
    assert "    goal: delivery p95 < 250 ms" in text


def test_every_goal_names_a_figure_once_and_every_marker_in_the_docs_names_a_benchmark():
    marks = benchmarks()
    docs = (REPO / "docs" / "benchmarks.md").read_text()
    named = {match[1] for match in BLOCK.findall(docs)}

    for mark in marks.values():
        figures = [goal.figure for goal in mark.goals]
        assert len(figures) == len(set(figures)), mark.name
    assert named and named <= set(marks)


def test_a_setting_is_given_on_the_command_line_and_an_unknown_bench_is_refused(tmp_path, capsys):
    assert main(["deals", "--deals", "3", "--results", str(tmp_path)]) in (0, 1)  # 1: too few
    assert json.loads((tmp_path / "deals" / "latest.json").read_text())["settings"] == {"deals": 3}
    with pytest.raises(SystemExit):
        main(["no_such_bench"])


def test_all_quick_runs_every_benchmark_against_a_service_it_starts(tmp_path):
    # Services of their own (embedded Postgres and Redis), not the suite's: the benches load
    # players, ratings and histories into what they are given.
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "bench", "all", "--quick", "--results", str(tmp_path)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=QUICK_SECONDS + 60,
    )  # fmt: skip

    took = time.monotonic() - started
    results = {p.parent.name: json.loads(p.read_text()) for p in tmp_path.glob("*/latest.json")}
    assert set(results) == set(benchmarks()), done.stderr[-2000:]
    errors = {name: r["error"] for name, r in results.items() if "error" in r}
    assert errors == {}, done.stdout[-3000:]
    assert done.returncode in (0, 1), done.stdout[-3000:]  # 1: a quick run missed a goal
    assert done.returncode == int(any(r["verdict"] == "FAIL" for r in results.values()))
    assert took < QUICK_SECONDS
