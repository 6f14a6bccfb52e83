"""No import cycle among the project's modules: every import counts, a lazy one inside a
function or one under TYPE_CHECKING too (tests/import_graph.py reads them from the source)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_graph import build_graph, find_cycles

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "workers", "events", "domain", "embedded", "testing", "bench", "tools")


def test_no_module_of_ours_imports_itself_round_a_cycle():
    graph = build_graph(ROOT, PACKAGES)
    cycles = find_cycles(graph)
    assert not cycles, "\n".join(str(cycle) for cycle in cycles)


def test_the_graph_sees_every_package_and_its_imports():
    # A guard on the guard: a graph that found no module, or no import, would find no cycle.
    graph = build_graph(ROOT, PACKAGES)
    for package in PACKAGES:
        assert package in graph.modules
    assert "events.postgres.db" in graph.imports_of("events.postgres.store")
    assert "api.http.limit_keys" in graph.imports_of("api.http.problems")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "second",
    [
        "from planted.first import THING\n",
        "def later():\n    from . import first\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .first import THING\n",
        "import importlib\nfirst = importlib.import_module('planted.first')\n",
    ],
    ids=["module-level", "lazy-relative", "type-checking", "import-module"],
)
def test_a_planted_cycle_is_found_with_its_path(tmp_path, second):
    # Given a package whose first module imports the second, which imports the first back
    write(tmp_path, {
        "planted/__init__.py": "",
        "planted/first.py": "from planted import second\nTHING = 1\n",
        "planted/second.py": second,
    })  # fmt: skip
    cycles = find_cycles(build_graph(tmp_path, ["planted"]))
    assert [cycle.modules for cycle in cycles] == [("planted.first", "planted.second")]
    report = str(cycles[0])
    assert "planted.first -> planted.second -> planted.first" in report
    assert "planted/first.py:1" in report


def test_a_longer_cycle_is_reported_once_and_a_module_outside_it_not_at_all(tmp_path):
    write(tmp_path, {
        "ring/__init__.py": "",
        "ring/a.py": "import ring.b\n",
        "ring/b.py": "from ring.inner.c import x\n",
        "ring/inner/__init__.py": "",
        "ring/inner/c.py": "from .. import a\nx = 1\n",
        "ring/outside.py": "import ring.a\n",
    })  # fmt: skip
    cycles = find_cycles(build_graph(tmp_path, ["ring"]))
    assert [cycle.modules for cycle in cycles] == [("ring.a", "ring.b", "ring.inner.c")]


def test_imports_that_only_point_down_make_no_cycle(tmp_path):
    write(tmp_path, {
        "down/__init__.py": "from down.top import run\n",
        "down/top.py": "from down import bottom\nfrom down.bottom import value\nrun = value\n",
        "down/bottom.py": "import json\nvalue = json.dumps(1)\n",
    })  # fmt: skip
    graph = build_graph(tmp_path, ["down"])
    assert graph.imports_of("down.top") == {"down.bottom"}
    assert find_cycles(graph) == []
