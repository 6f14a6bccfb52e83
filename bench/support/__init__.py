"""What the benchmarks share, written once: the declaration and the runner, the service, its
processes' CPU and memory, HTTP players, paced tables, stream readers, statistics and progress."""
