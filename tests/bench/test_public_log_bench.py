"""bench/public_log.py at a small size: it fills the log through the real write path, measures
each figure of issue 54 and meets the proofs' goal."""

from __future__ import annotations

import os

from bench.public_log import BENCHMARK
from bench.support.benchmark import Context
from bench.support.service import Service


def test_the_log_bench_fills_the_tree_and_measures_appends_proofs_signing_and_storage():
    service = Service("", os.environ["DATABASE_URL"], None, None)

    figures = BENCHMARK.run(Context("", service, quick=True), BENCHMARK.resolved(quick=True))

    assert figures["leaves"] == 2505  # and the five appended one at a time
    for name in ("append_p95_ms", "inclusion_p95_ms", "consistency_p95_ms",
                 "http_inclusion_p95_ms", "sign_checkpoint_ms", "bytes_per_leaf"):  # fmt: skip
        assert figures[name] > 0, name
    assert [goal.verdict(figures) for goal in BENCHMARK.goals] == ["PASS"]
