"""What the benchmarks share, written once: the declaration and the runner (benchmark.py,
runner.py), the service as `make run` starts it (service.py), its processes' CPU and memory
(server_procs.py), HTTP players (players.py), tables at a human pace (paced_play.py),
thousands of event streams in a process of their own (sse_reader.py), statistics and
progress (stats.py), and sides run in turn (sides.py)."""
