"""bench/deals.py: it measures every game and table size, and says whether the goal is met."""

from __future__ import annotations

import json

from bench.deals import main


def test_the_deal_bench_measures_every_table_size_and_meets_its_goal(tmp_path, capsys):
    figures = tmp_path / "deals.json"
    assert main(["--deals", "30", "--json", str(figures)]) == 0
    rows = json.loads(figures.read_text())["rows"]
    assert len(rows) == 12 and {row["cards"] for row in rows} == {36, 40, 48, 52, 60}
    assert "goal: deriving a deal takes < 1.0 ms: PASS" in capsys.readouterr().out
