"""Cardroom's benchmarks. Each runs from the repository's root as a module, e.g.
`.venv/bin/python -m bench.actions --start`, prints its progress and figures, and says PASS or
FAIL per goal; docs/benchmarks.md holds today's figures and the command behind each.

Shared parts: service.py starts the service as `make run` does (or a second API beside it),
players.py plays games through the HTTP API, sse_reader.py reads thousands of event streams
in a process of its own, stats.py has the percentiles and the progress line, server_procs.py
finds the server's processes and their CPU and memory. What the tests share with the benches
(the browser pages, the chaos scenarios, an SSE client) is in the `testing` package."""
