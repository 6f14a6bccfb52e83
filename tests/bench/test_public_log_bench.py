"""bench/public_log.py at a small size: it fills the log through the real write path, measures
each figure of issue 54 and says whether the proofs meet their goal."""

from __future__ import annotations

import json

from bench.public_log import main


def test_the_log_bench_fills_the_tree_and_measures_appends_proofs_signing_and_storage(
    tmp_path, capsys
):
    figures_file = tmp_path / "log.json"
    argv = ["--leaves", "2500", "--appends", "5", "--proofs", "30", "--signatures", "10"]
    assert main([*argv, "--json", str(figures_file)]) == 0
    figures = json.loads(figures_file.read_text())
    assert figures["leaves"] == 2505  # and the five appended one at a time
    for name in ("append_p95_ms", "inclusion_p95_ms", "consistency_p95_ms",
                 "http_inclusion_p95_ms", "sign_checkpoint_ms", "bytes_per_leaf"):  # fmt: skip
        assert figures[name] > 0, name
    assert "goal: inclusion and consistency proof p95 < 20 ms: PASS" in capsys.readouterr().out
