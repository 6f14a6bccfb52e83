"""Cardroom's benchmarks, each module one `BENCHMARK` run by `python -m bench` (support/runner.py);
docs/benchmarks.md holds today's figures and the command behind each."""
