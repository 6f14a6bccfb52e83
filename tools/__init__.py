"""Tools that are no benchmarks, each run from the repository's root as a module: screenshots.py
takes docs/screenshots/ again (`python -m tools.screenshots`), side_by_side.py compares the API
CPU per action of this checkout with another revision's (`python -m tools.side_by_side --ref
REV`), chaos.py times the recovery from faults (`python -m tools.chaos`). They use bench/'s
service start and players; nothing imports them."""
