"""Cardroom's benchmarks, run by one runner: `python -m bench --list`, `python -m bench NAME`,
`python -m bench all --quick`, `python -m bench report` (bench/support/runner.py). Each module
here declares one `BENCHMARK` (bench/support/benchmark.py); what they share is in support/.
docs/benchmarks.md holds today's figures and the command behind each."""
