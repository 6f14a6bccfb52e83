"""bench/deals.py: it measures every game and table size, and meets its goal."""

from __future__ import annotations

from bench.deals import BENCHMARK
from bench.support.benchmark import Context


def test_the_deal_bench_measures_every_table_size_and_meets_its_goal():
    figures = BENCHMARK.run(Context(""), BENCHMARK.resolved(quick=True))

    rows = [row for row in figures.values() if isinstance(row, dict)]
    assert len(rows) == 12 and {row["cards"] for row in rows} == {36, 40, 48, 52, 60}
    assert [goal.verdict(figures) for goal in BENCHMARK.goals] == ["PASS"]
